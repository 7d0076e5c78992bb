import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import {
  passwordResetInputSchema,
  useSendPasswordReset,
  type PasswordResetInput,
} from '../api/send-password-reset';
import { RESET_EMAIL_FAILED_MESSAGE, RESET_EMAIL_SENT_MESSAGE } from '../api/auth-messages';

export function ResetPasswordForm({ onSuccess }: { onSuccess: () => void }) {
  const sendPasswordReset = useSendPasswordReset();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<PasswordResetInput>({
    resolver: zodResolver(passwordResetInputSchema),
    defaultValues: { email: '' },
  });

  const submit = handleSubmit(async (input) => {
    try {
      await sendPasswordReset.mutateAsync(input);
    } catch {
      toast.error(RESET_EMAIL_FAILED_MESSAGE);
      return;
    }
    toast.success(RESET_EMAIL_SENT_MESSAGE);
    onSuccess();
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <FormField label="Email" error={errors.email?.message}>
        {(control) => <Input type="email" autoComplete="email" {...control} {...register('email')} />}
      </FormField>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Sending…' : 'Send reset link'}
      </Button>
    </form>
  );
}
