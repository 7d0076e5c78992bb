import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { QueryState } from '@/components/query-state';
import {
  HOLD_ENDED_MESSAGE,
  SECURITY_HOLD_RANGE_MESSAGE,
  SECURITY_HOLD_UPDATE_FAILED_MESSAGE,
  SECURITY_HOLD_UPDATED_MESSAGE,
} from '../api/admin-messages';
import { useEndSecurityHold } from '../api/end-security-hold';
import { wholeNumberSetting } from '../api/whole-number-setting';
import { securityHoldFormSchema } from './setting-form-schemas';
import { WholeNumberSettingForm } from './whole-number-setting-form';

/** Hours after a password, e-mail or two-factor change during which withdrawals are refused. */
const securityHoldHours = wholeNumberSetting('security_hold_hours', {
  failedMessage: SECURITY_HOLD_UPDATE_FAILED_MESSAGE,
  passedOn: [SECURITY_HOLD_RANGE_MESSAGE],
});
const endHoldFormSchema = z.object({ email: z.string().trim().min(1, 'Email is required') });

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
      return toast.error(error instanceof Error ? error.message : String(error));
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
  const hours = securityHoldHours.useValue();
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
          {(current) => (
            <WholeNumberSettingForm
              setting={securityHoldHours}
              current={current}
              schema={securityHoldFormSchema}
              label="Hold after a security change (hours)"
              saveLabel="Save hold"
              savedMessage={SECURITY_HOLD_UPDATED_MESSAGE}
            />
          )}
        </QueryState>
        <EndHoldForm />
      </CardContent>
    </Card>
  );
}
