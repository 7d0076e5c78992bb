import { useState, type FormEvent } from 'react';
import {
  bankDetailsSchema,
  cryptocurrencyOptions,
  payoutDestinationSchema,
  savedCardDetailsSchema,
  walletDetailsSchema,
  withdrawalFieldLabels,
  type PayoutDestination,
  type WithdrawalField,
  type WithdrawMethod,
} from '@domain/withdrawal.ts';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { WithdrawMethodOptions } from '@/components/withdraw-method-options';

/** Each method's fields, in the domain schema's order (a saved card has no CVV or PIN). */
const fieldsOf: Record<WithdrawMethod, WithdrawalField[]> = {
  bank: Object.keys(bankDetailsSchema.shape) as WithdrawalField[],
  card: Object.keys(savedCardDetailsSchema.shape) as WithdrawalField[],
  wallet: Object.keys(walletDetailsSchema.shape) as WithdrawalField[],
};

/**
 * A new destination: label, method and the method's details, checked with the schema the function uses.
 * Resolves the submission with the parsed destination; the caller saves it.
 */
export function DestinationForm({
  onSave,
}: {
  onSave: (destination: PayoutDestination) => Promise<boolean>;
}) {
  const [label, setLabel] = useState('');
  const [method, setMethod] = useState<WithdrawMethod | ''>('');
  const [details, setDetails] = useState<Partial<Record<WithdrawalField, string>>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = payoutDestinationSchema.safeParse({ label, withdrawMethod: method || undefined, details });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues)
        found[issue.path.at(-1)?.toString() ?? 'withdrawMethod'] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    setSaving(true);
    const saved = await onSave(parsed.data);
    setSaving(false);
    if (saved) {
      setLabel('');
      setDetails({});
    }
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Add a destination">
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField label="Label" error={errors.label}>
          {(control) => (
            <Input
              {...control}
              value={label}
              onChange={(event) => setLabel(event.target.value)}
              placeholder="Salary account"
            />
          )}
        </FormField>
        <FormField label="Withdraw method" error={errors.withdrawMethod}>
          {(control) => (
            <NativeSelect
              {...control}
              value={method}
              onChange={(event) => {
                setMethod(event.target.value as WithdrawMethod | '');
                setDetails({});
              }}
            >
              <WithdrawMethodOptions />
            </NativeSelect>
          )}
        </FormField>
      </div>
      {method && (
        <div className="grid items-start gap-4 sm:grid-cols-2">
          {fieldsOf[method].map((field) => (
            <FormField key={field} label={withdrawalFieldLabels[field]} error={errors[field]}>
              {(control) =>
                field === 'cryptoType' ? (
                  <NativeSelect
                    {...control}
                    value={details.cryptoType ?? ''}
                    onChange={(event) => setDetails({ ...details, cryptoType: event.target.value })}
                  >
                    <option value="">Select a cryptocurrency</option>
                    {cryptocurrencyOptions.map((coin) => (
                      <option key={coin} value={coin}>
                        {coin}
                      </option>
                    ))}
                  </NativeSelect>
                ) : (
                  <Input
                    {...control}
                    value={details[field] ?? ''}
                    onChange={(event) => setDetails({ ...details, [field]: event.target.value })}
                  />
                )
              }
            </FormField>
          ))}
        </div>
      )}
      <Button type="submit" disabled={saving}>
        {saving ? 'Saving…' : 'Save destination'}
      </Button>
    </form>
  );
}
