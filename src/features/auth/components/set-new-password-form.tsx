import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  setNewPasswordError,
  setNewPasswordInputSchema,
  useSetNewPassword,
  type SetNewPasswordInput,
} from '../api/set-new-password';
import { NewPasswordFields } from './new-password-fields';
import { PASSWORD_UPDATED_MESSAGE, PASSWORD_UPDATE_FAILED_MESSAGE } from '../api/auth-messages';

/** The reset link's form; `onUpdated` runs once the new password is set (the person stays signed in). */
export function SetNewPasswordForm({ onUpdated }: { onUpdated: () => void }) {
  const setNewPassword = useSetNewPassword();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SetNewPasswordInput>({
    resolver: zodResolver(setNewPasswordInputSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });

  const submit = handleSubmit(async (input) => {
    try {
      await setNewPassword.mutateAsync(input);
    } catch (error) {
      const { message, field } = setNewPasswordError(error);
      if (field) setError(field, { message }, { shouldFocus: true });
      toast.error(PASSWORD_UPDATE_FAILED_MESSAGE, { description: message });
      return;
    }
    toast.success(PASSWORD_UPDATED_MESSAGE);
    onUpdated();
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <NewPasswordFields
        newPassword={{ field: register('newPassword'), error: errors.newPassword?.message }}
        confirmPassword={{ field: register('confirmPassword'), error: errors.confirmPassword?.message }}
      />
      <Button type="submit" disabled={isSubmitting} className="w-full">
        {isSubmitting ? 'Updating…' : 'Update password'}
      </Button>
    </form>
  );
}
