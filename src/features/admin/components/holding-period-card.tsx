import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { QueryState } from '@/components/query-state';
import { HOLDING_PERIOD_UPDATED_MESSAGE } from '../api/admin-messages';
import { useLongTermAfterDays, useUpdateLongTermAfterDays } from '../api/holding-period';
import { holdingPeriodFormSchema } from './holding-period-form-schema';

function HoldingPeriodForm({ days }: { days: number }) {
  const update = useUpdateLongTermAfterDays();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<z.infer<typeof holdingPeriodFormSchema>>({
    resolver: zodResolver(holdingPeriodFormSchema),
    defaultValues: { days: String(days) },
  });
  useEffect(() => reset({ days: String(days) }), [days, reset]);

  const submit = handleSubmit(async (values) => {
    try {
      await update.mutateAsync(Number(values.days));
    } catch (error) {
      return toast.error(error instanceof Error ? error.message : String(error));
    }
    toast.success(HOLDING_PERIOD_UPDATED_MESSAGE);
  });

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Holding period">
      <FormField label="Long-term after (days held)" error={errors.days?.message}>
        {(control) => <Input inputMode="numeric" {...control} {...register('days')} />}
      </FormField>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Saving…' : 'Save holding period'}
      </Button>
    </form>
  );
}

/**
 * /admin/settings: the holding period after which a sale is long-term in everyone's gains report (365 days by
 * default), read by the report as it is built, so a change shows in every report at once.
 */
export function HoldingPeriodCard() {
  const days = useLongTermAfterDays();
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>Holding period for gains</CardTitle>
        <CardDescription>
          A sale is long-term when the coins were held more than this many days (from the day acquired to the
          day sold, in the person&apos;s tax time zone); short-term otherwise.
        </CardDescription>
      </CardHeader>
      <CardContent aria-busy={days.isPending}>
        <QueryState
          query={days}
          placeholder={<Skeleton className="h-16 w-full" aria-hidden />}
          errorMessage="Failed to load the holding period"
        >
          {(current) => <HoldingPeriodForm days={current} />}
        </QueryState>
      </CardContent>
    </Card>
  );
}
