import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { verifyTotpCode } from '@/lib/two-factor';

const totpCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'),
});
type TotpCodeInput = z.infer<typeof totpCodeSchema>;

/**
 * The code step: the 6-digit code of the person's authenticator app, checked by Auth, which moves this
 * session to aal2. A wrong code is said under the field and nothing else changes.
 */
export function TwoFactorCodeForm({
  onVerified,
  verify = verifyTotpCode,
  submitLabel = 'Verify',
}: {
  onVerified: () => void;
  /** What checks the code; the person's verified factor unless a new one is being confirmed. */
  verify?: (code: string) => Promise<void>;
  submitLabel?: string;
}) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TotpCodeInput>({ resolver: zodResolver(totpCodeSchema), defaultValues: { code: '' } });

  const submit = handleSubmit(async ({ code }) => {
    try {
      await verify(code);
    } catch (error) {
      setError('code', { message: (error as Error).message }, { shouldFocus: true });
      return;
    }
    onVerified();
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <FormField label="Authentication code" error={errors.code?.message}>
        {(control) => (
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder="123456"
            autoFocus
            {...control}
            {...register('code')}
          />
        )}
      </FormField>
      <Button type="submit" disabled={isSubmitting} className="justify-self-start">
        {isSubmitting ? 'Checking…' : submitLabel}
      </Button>
    </form>
  );
}
