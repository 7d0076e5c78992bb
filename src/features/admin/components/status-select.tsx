import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { formatStatus } from '@/lib/format';

export interface StatusOption {
  value: string;
  label: string;
}

/**
 * A row's status: a dropdown to choose (the built-in statuses, then the admin-defined status types) and
 * Apply to change it. Choosing alone changes nothing, so moving through the list with the arrow keys never
 * sets a status. A status no longer on offer (a deleted status type) stays shown as the current value.
 */
export function StatusSelect({
  value,
  builtIn,
  statusTypes,
  onApply,
  disabled,
  label,
}: {
  value: string;
  builtIn: readonly StatusOption[];
  statusTypes: readonly string[];
  onApply: (status: string) => void;
  disabled?: boolean;
  /** Accessible name, e.g. 'Status of Jane Doe's deposit of $10.00'. */
  label: string;
}) {
  // The choice is reset whenever the stored status changes (a decision here or by another admin).
  const [choice, setChoice] = useState({ for: value, status: value });
  const chosen = choice.for === value ? choice.status : value;
  // A status type may share a built-in's name ('cancelled'): offered once.
  const options = [
    ...builtIn,
    ...statusTypes
      .filter((name) => !builtIn.some((option) => option.value === name))
      .map((name) => ({ value: name, label: formatStatus(name) })),
  ];
  if (!options.some((option) => option.value === value)) options.push({ value, label: formatStatus(value) });
  return (
    <div className="flex items-center gap-2">
      <div className="min-w-36">
        <NativeSelect
          aria-label={label}
          value={chosen}
          disabled={disabled}
          onChange={(event) => setChoice({ for: value, status: event.target.value })}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Button
        size="sm"
        variant="outline"
        disabled={disabled || chosen === value}
        aria-label={`Apply: ${label}`}
        onClick={() => {
          // Back to the stored status: the row shows the change once it is made, never one that failed.
          setChoice({ for: value, status: value });
          onApply(chosen);
        }}
      >
        Apply
      </Button>
    </div>
  );
}
