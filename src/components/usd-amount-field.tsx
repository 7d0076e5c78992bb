import { FormField } from '@/components/ui/form-field';
import { UsdAmountInput } from '@/components/ui/usd-amount-input';

/** A labelled dollar amount of a cent or more, kept as the text typed. */
export function UsdAmountField({
  label,
  className,
  required,
  value,
  onValueChange,
}: {
  label: string;
  className?: string;
  required?: boolean;
  value: string;
  onValueChange: (amount: string) => void;
}) {
  return (
    <FormField label={label} className={className}>
      {(control) => (
        <UsdAmountInput
          {...control}
          required={required}
          min="0.01"
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
        />
      )}
    </FormField>
  );
}
