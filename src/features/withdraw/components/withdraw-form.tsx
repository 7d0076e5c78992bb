import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { toast } from 'sonner';
import { type WithdrawalRequest, type WithdrawalSubmission } from '@domain/withdrawal.ts';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { WithdrawMethodOptions } from '@/components/withdraw-method-options';
import { UsdAmountInput } from '@/components/ui/usd-amount-input';
import { formatDateTime } from '@/lib/format';
import { successToastOptions, type SubmissionOutcome } from '@/lib/idempotent-submission';
import { limitsAreSet } from '@domain/limits.ts';
import { WITHDRAW_SUBMITTED_MESSAGE, WITHDRAW_SUBMIT_FAILED_MESSAGE } from '../api/withdraw-messages';
import type { PayToChoices } from '../api/get-saved-destinations';
import {
  createSavedDestinationFormSchema,
  createWithdrawFormSchema,
  maximumWithdrawal,
  type WithdrawAllowance,
  type WithdrawFormValues,
} from './withdraw-form-schema';
import { WithdrawMethodFields } from './withdraw-method-fields';

export interface WithdrawFormProps {
  allowance: WithdrawAllowance;
  /** The address book's destinations, offered by label and last 4 characters. */
  payTo?: PayToChoices;
  /** Sends the request; rejects with an Error whose message is what the person should read. */
  /** Resolves once the request exists (perhaps found by a retry after a lost answer). */
  onSubmit: (request: WithdrawalSubmission) => Promise<SubmissionOutcome<unknown>>;
}

const emptyForm: WithdrawFormValues = { amount: '', destinationId: '', withdrawMethod: '', details: {} };

export function WithdrawForm({ allowance, payTo, onSubmit }: WithdrawFormProps) {
  const allowlistInForce = payTo?.allowlistInForce ?? false;
  const resolver = useMemo(() => {
    // The schema reads the typed text (and an unchosen method) and yields the request the function takes:
    // typed details, or a saved destination (whose details the function reads itself).
    const typed = zodResolver(createWithdrawFormSchema(allowance)) as Resolver<
      WithdrawFormValues,
      unknown,
      WithdrawalRequest
    >;
    const saved = zodResolver(createSavedDestinationFormSchema(allowance)) as unknown as Resolver<
      WithdrawFormValues,
      unknown,
      WithdrawalSubmission
    >;
    const chooseResolver: Resolver<WithdrawFormValues, unknown, WithdrawalSubmission> = (
      { destinationId, ...values },
      context,
      options,
    ) =>
      // With the allowlist in force, no typed details: a destination must be chosen.
      destinationId || allowlistInForce
        ? saved({ amount: values.amount, destinationId, withdrawMethod: '', details: {} }, context, options)
        : typed(values, context, options);
    return chooseResolver;
  }, [allowance, allowlistInForce]);
  const {
    register,
    handleSubmit,
    control,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<WithdrawFormValues, unknown, WithdrawalSubmission>({
    resolver,
    // Validated on submit, then on each change: validating on blur moves the button under the pointer.
    mode: 'onSubmit',
    // Fields of a method no longer chosen leave the values, so only the chosen method's details are sent.
    shouldUnregister: true,
    defaultValues: emptyForm,
  });
  const method = useWatch({ control, name: 'withdrawMethod' });
  const destinationId = useWatch({ control, name: 'destinationId' });
  const offersTyped = !allowlistInForce;
  const maximum = maximumWithdrawal(allowance);

  // A refusal the form can tell shows once, under its field; a toast is only for what the server answers.
  const submit = handleSubmit(async (request) => {
    let outcome: SubmissionOutcome<unknown>;
    try {
      outcome = await onSubmit(request);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : WITHDRAW_SUBMIT_FAILED_MESSAGE);
      return;
    }
    toast.success(WITHDRAW_SUBMITTED_MESSAGE, successToastOptions(outcome));
    reset(emptyForm);
  });

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
        {payTo && (payTo.saved.length > 0 || !offersTyped) && (
          <FormField label="Pay to" error={errors.destinationId?.message}>
            {(control) => (
              <NativeSelect {...control} {...register('destinationId')}>
                <option value="">
                  {offersTyped ? 'New details (typed below)' : 'Choose a saved destination'}
                </option>
                {payTo.saved.map((choice) => (
                  <option key={choice.id} value={choice.id} disabled={choice.waitsUntil !== null}>
                    {choice.waitsUntil
                      ? `${choice.name} (waiting until ${formatDateTime(choice.waitsUntil)})`
                      : choice.name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
        )}
        {!destinationId && offersTyped && (
          <FormField label="Withdraw method" error={errors.withdrawMethod?.message}>
            {(control) => (
              <NativeSelect {...control} {...register('withdrawMethod')}>
                <WithdrawMethodOptions />
              </NativeSelect>
            )}
          </FormField>
        )}
      </div>
      {!destinationId && offersTyped && method && (
        <WithdrawMethodFields method={method} register={register} errors={errors.details} />
      )}
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Submitting…' : 'Submit Withdraw Request'}
      </Button>
    </form>
  );
}
