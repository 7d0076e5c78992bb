import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { toast } from 'sonner';
import { withdrawMethodLabels, withdrawMethods, type WithdrawalRequest } from '@domain/withdrawal.ts';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { UsdAmountInput } from '@/components/ui/usd-amount-input';
import { successToastOptions, type SubmissionOutcome } from '@/lib/idempotent-submission';
import { limitsAreSet } from '@domain/limits.ts';
import { WITHDRAW_SUBMITTED_MESSAGE, WITHDRAW_SUBMIT_FAILED_MESSAGE } from '../api/withdraw-messages';
import {
  createWithdrawFormSchema,
  maximumWithdrawal,
  withdrawSubmitError,
  type WithdrawAllowance,
  type WithdrawFormValues,
} from './withdraw-form-schema';
import { WithdrawMethodFields } from './withdraw-method-fields';

export interface WithdrawFormProps {
  allowance: WithdrawAllowance;
  /** Sends the request; rejects with an Error whose message is what the person should read. */
  /** Resolves once the request exists (perhaps found by a retry after a lost answer). */
  onSubmit: (request: WithdrawalRequest) => Promise<SubmissionOutcome<unknown>>;
}

const emptyForm: WithdrawFormValues = { amount: '', withdrawMethod: '', details: {} };

export function WithdrawForm({ allowance, onSubmit }: WithdrawFormProps) {
  const resolver = useMemo(
    // The schema reads the typed text (and an unchosen method) and yields the request the function takes.
    () =>
      zodResolver(createWithdrawFormSchema(allowance)) as Resolver<
        WithdrawFormValues,
        unknown,
        WithdrawalRequest
      >,
    [allowance],
  );
  const {
    register,
    handleSubmit,
    control,
    reset,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<WithdrawFormValues, unknown, WithdrawalRequest>({
    resolver,
    // Validated on submit, then on each change: validating on blur moves the button under the pointer.
    mode: 'onSubmit',
    // Fields of a method no longer chosen leave the values, so only the chosen method's details are sent.
    shouldUnregister: true,
    defaultValues: emptyForm,
  });
  const method = useWatch({ control, name: 'withdrawMethod' });
  const maximum = maximumWithdrawal(allowance);

  const submit = handleSubmit(
    async (request) => {
      let outcome: SubmissionOutcome<unknown>;
      try {
        outcome = await onSubmit(request);
      } catch (error) {
        toast.error(error instanceof Error ? error.message : WITHDRAW_SUBMIT_FAILED_MESSAGE);
        return;
      }
      toast.success(WITHDRAW_SUBMITTED_MESSAGE, successToastOptions(outcome));
      reset(emptyForm);
    },
    () => {
      // The specification repeats the balance and limit checks on submit as a toast.
      const typed = getValues('amount').trim();
      const message = typed === '' ? undefined : withdrawSubmitError(Number(typed), allowance);
      if (message) toast.error(message);
    },
  );

  return (
    <form onSubmit={submit} noValidate className="grid gap-5">
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField label="Amount (USD)" error={errors.amount?.message}>
          {(control) => (
            <UsdAmountInput
              {...control}
              {...register('amount')}
              min={limitsAreSet(allowance.limits) ? allowance.limits.minAmount : 0}
              max={maximum}
              placeholder="0.00"
            />
          )}
        </FormField>
        <FormField label="Withdraw method" error={errors.withdrawMethod?.message}>
          {(control) => (
            <NativeSelect {...control} {...register('withdrawMethod')}>
              <option value="">Select a withdraw method</option>
              {withdrawMethods.map((option) => (
                <option key={option} value={option}>
                  {withdrawMethodLabels[option]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
      </div>
      {method && <WithdrawMethodFields method={method} register={register} errors={errors.details} />}
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Submitting…' : 'Submit Withdraw Request'}
      </Button>
    </form>
  );
}
