import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { useEndSecurityHold } from '../api/end-security-hold';
import { useSecurityHoldHours, useUpdateSecurityHoldHours } from '../api/security-hold-hours';
import { QueryState } from '@/components/query-state';
import {
  HOLD_ENDED_MESSAGE,
  SECURITY_HOLD_RANGE_MESSAGE,
  SECURITY_HOLD_UPDATED_MESSAGE,
} from '../api/admin-messages';

const hoursFormSchema = z.object({
  hours: z
    .string()
    .trim()
    .regex(/^\d+$/, 'Hours must be a whole number')
    .refine((text) => Number(text) <= 720, SECURITY_HOLD_RANGE_MESSAGE),
});
const endHoldFormSchema = z.object({ email: z.string().trim().min(1, 'Email is required') });

function toastFailure(error: unknown) {
  toast.error(error instanceof Error ? error.message : String(error));
}

function HoldHoursForm({ hours }: { hours: number }) {
  const update = useUpdateSecurityHoldHours();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<z.infer<typeof hoursFormSchema>>({
    resolver: zodResolver(hoursFormSchema),
    defaultValues: { hours: String(hours) },
  });
  useEffect(() => reset({ hours: String(hours) }), [hours, reset]);

  const submit = handleSubmit(async (values) => {
    try {
      await update.mutateAsync(Number(values.hours));
    } catch (error) {
      return toastFailure(error);
    }
    toast.success(SECURITY_HOLD_UPDATED_MESSAGE);
  });

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <FormField label="Hold after a security change (hours)" error={errors.hours?.message}>
        {(control) => <Input inputMode="numeric" {...control} {...register('hours')} />}
      </FormField>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Saving…' : 'Save hold'}
      </Button>
    </form>
  );
}

function EndHoldForm() {
  const endHold = useEndSecurityHold();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<z.infer<typeof endHoldFormSchema>>({
    resolver: zodResolver(endHoldFormSchema),
    defaultValues: { email: '' },
  });

  const submit = handleSubmit(async ({ email }) => {
    try {
      await endHold.mutateAsync(email);
    } catch (error) {
      return toastFailure(error);
    }
    reset();
    toast.success(HOLD_ENDED_MESSAGE);
  });

  return (
    <form onSubmit={submit} noValidate className="grid gap-4 border-t pt-5">
      <FormField label="End a person's hold early (their e-mail)" error={errors.email?.message}>
        {(control) => <Input type="email" autoComplete="off" {...control} {...register('email')} />}
      </FormField>
      <Button type="submit" variant="outline" disabled={isSubmitting}>
        {isSubmitting ? 'Ending…' : 'End hold'}
      </Button>
    </form>
  );
}

/**
 * /admin/settings: how long withdrawals wait after a password, e-mail or two-factor change, and ending
 * one person's hold early once support has made sure the change was theirs (audited).
 */
export function SecurityHoldCard() {
  const hours = useSecurityHoldHours();
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>Withdrawal hold</CardTitle>
        <CardDescription>
          After a password, e-mail or two-factor change, new withdrawals wait this many hours (0: no hold).
        </CardDescription>
      </CardHeader>
      <CardContent aria-busy={hours.isPending} className="grid gap-5">
        <QueryState
          query={hours}
          placeholder={<Skeleton className="h-16 w-full" aria-hidden />}
          errorMessage="Failed to load the security hold"
        >
          {(current) => <HoldHoursForm hours={current} />}
        </QueryState>
        <EndHoldForm />
      </CardContent>
    </Card>
  );
}
