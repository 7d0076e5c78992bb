import { NativeSelect } from '@/components/ui/native-select';

export interface StatusOption {
  value: string;
  label: string;
}

/**
 * A row's status dropdown: the built-in statuses, then the admin-defined status types. A status no longer
 * on offer (a deleted status type) stays shown as the current value.
 */
export function StatusSelect({
  value,
  builtIn,
  statusTypes,
  onChange,
  disabled,
  label,
}: {
  value: string;
  builtIn: readonly StatusOption[];
  statusTypes: readonly string[];
  onChange: (status: string) => void;
  disabled?: boolean;
  /** Accessible name, e.g. 'Status of Jane Doe's deposit'. */
  label: string;
}) {
  const options = [...builtIn, ...statusTypes.map((name) => ({ value: name, label: name }))];
  if (!options.some((option) => option.value === value)) options.push({ value, label: value });
  return (
    <div className="min-w-36">
      <NativeSelect
        aria-label={label}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
