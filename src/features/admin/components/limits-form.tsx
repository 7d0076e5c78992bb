import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Skeleton } from '@/components/ui/skeleton';
import { UsdAmountInput } from '@/components/ui/usd-amount-input';
import { useTransactionLimits } from '@/lib/transaction-limits';
import { LIMITS_LOAD_FAILED_MESSAGE } from '@domain/limits.ts';
import { LIMITS_UPDATED_MESSAGE } from '../api/admin-messages';
import { useUpdateTransactionLimits } from '../api/update-transaction-limits';
import { limitsFormSchema, type LimitsFormValues } from './limits-form-schema';
import { ErrorMessage } from '@/components/error-message';

/** /admin/settings: the global minimum and maximum of every buy and withdraw request, in USD. */
export function LimitsForm() {
  const limits = useTransactionLimits();
  const update = useUpdateTransactionLimits();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<LimitsFormValues>({
    resolver: zodResolver(limitsFormSchema),
    defaultValues: { minAmount: '', maxAmount: '' },
  });

  // The form starts from the stored limits once they arrive.
  useEffect(() => {
    if (limits.data) {
      reset({ minAmount: String(limits.data.minAmount), maxAmount: String(limits.data.maxAmount) });
    }
  }, [limits.data, reset]);

  const submit = handleSubmit(async (values) => {
    try {
      await update.mutateAsync({ minAmount: Number(values.minAmount), maxAmount: Number(values.maxAmount) });
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
      return;
    }
    toast.success(LIMITS_UPDATED_MESSAGE);
  });

  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>Transaction limits</CardTitle>
        <CardDescription>
          Every buy and withdraw request must lie between these amounts (USD).
        </CardDescription>
      </CardHeader>
      <CardContent aria-busy={limits.isPending}>
        {limits.isPending ? (
          <div className="grid gap-4" aria-hidden>
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : limits.isError ? (
          <ErrorMessage>{LIMITS_LOAD_FAILED_MESSAGE}</ErrorMessage>
        ) : (
          <form onSubmit={submit} noValidate className="grid gap-5">
            <FormField label="Minimum amount (USD)" error={errors.minAmount?.message}>
              {(control) => <UsdAmountInput {...control} {...register('minAmount')} />}
            </FormField>
            <FormField label="Maximum amount (USD)" error={errors.maxAmount?.message}>
              {(control) => <UsdAmountInput {...control} {...register('maxAmount')} />}
            </FormField>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Saving…' : 'Save limits'}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
