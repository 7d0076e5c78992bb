import { useId, type ComponentProps } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import {
  cryptocurrencyOptions,
  withdrawalFieldLabels,
  type WithdrawalField,
  type WithdrawMethod,
} from '@domain/withdrawal.ts';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import type { WithdrawFormValues } from './withdraw-form-schema';

type TextFieldSpec = { name: WithdrawalField } & Pick<
  ComponentProps<'input'>,
  'type' | 'inputMode' | 'autoComplete' | 'placeholder' | 'maxLength'
>;

/** The text inputs of each method, with the hints browsers and password managers understand. */
const textFields: Record<WithdrawMethod, TextFieldSpec[]> = {
  bank: [
    { name: 'accountNumber', autoComplete: 'off' },
    { name: 'accountName', autoComplete: 'name' },
    { name: 'bankName', autoComplete: 'off' },
    { name: 'bankAddress', autoComplete: 'street-address' },
    { name: 'routingNumber', autoComplete: 'off', inputMode: 'numeric' },
    { name: 'swiftCode', autoComplete: 'off' },
  ],
  card: [
    {
      name: 'cardNumber',
      autoComplete: 'cc-number',
      inputMode: 'numeric',
      placeholder: '1234 5678 9012 3456',
    },
    { name: 'expirationDate', autoComplete: 'cc-exp', placeholder: 'MM/YY', maxLength: 5 },
    { name: 'cvv', autoComplete: 'cc-csc', inputMode: 'numeric', type: 'password', maxLength: 4 },
    { name: 'pin', autoComplete: 'off', inputMode: 'numeric', type: 'password', maxLength: 12 },
  ],
  wallet: [{ name: 'walletAddress', autoComplete: 'off', placeholder: 'bc1…' }],
};

export interface WithdrawMethodFieldsProps {
  method: WithdrawMethod;
  register: UseFormRegister<WithdrawFormValues>;
  errors: FieldErrors<WithdrawFormValues>['details'];
}

/** The chosen method's fields only; the others are not rendered, so they are never sent. */
export function WithdrawMethodFields({ method, register, errors }: WithdrawMethodFieldsProps) {
  const cardSecretsNoteId = useId();
  // `deps`: the address is checked against the chosen coin's network, so a new coin checks it again.
  return (
    <fieldset className="grid items-start gap-4 sm:grid-cols-2">
      <legend className="sr-only">Payment details</legend>
      {method === 'card' && (
        <p id={cardSecretsNoteId} className="text-muted-foreground text-sm sm:col-span-2">
          The CVV and PIN only verify your card: they are never stored, and admins never see them.
        </p>
      )}
      {method === 'wallet' && (
        <FormField label={withdrawalFieldLabels.cryptoType} error={errors?.cryptoType?.message}>
          {(control) => (
            <NativeSelect {...control} {...register('details.cryptoType', { deps: 'details.walletAddress' })}>
              <option value="">Select a cryptocurrency</option>
              {cryptocurrencyOptions.map((symbol) => (
                <option key={symbol} value={symbol}>
                  {symbol}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
      )}
      {textFields[method].map(({ name, ...inputProps }) => (
        <FormField key={name} label={withdrawalFieldLabels[name]} error={errors?.[name]?.message}>
          {(control) => (
            <Input
              {...control}
              // The CVV and PIN also point to the note saying why they are asked for.
              aria-describedby={
                name === 'cvv' || name === 'pin'
                  ? [control['aria-describedby'], cardSecretsNoteId].filter(Boolean).join(' ')
                  : control['aria-describedby']
              }
              {...inputProps}
              {...register(`details.${name}`)}
            />
          )}
        </FormField>
      ))}
    </fieldset>
  );
}
