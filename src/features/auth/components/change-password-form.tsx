import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import {
  changePasswordInputSchema,
  CurrentPasswordWrongError,
  useChangePassword,
  type ChangePasswordInput,
} from '../api/change-password';
import { AccountFrozenError } from '../api/account-frozen';
import { connectionProblemMessage } from '../utils/auth-errors';
import { NewPasswordFields } from './new-password-fields';
import { PASSWORD_UPDATED_MESSAGE, PASSWORD_UPDATE_FAILED_MESSAGE } from '../api/auth-messages';

export function ChangePasswordForm() {
  const changePassword = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordInputSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });

  const submit = handleSubmit(async (input) => {
    try {
      await changePassword.mutateAsync(input);
    } catch (error) {
      if (error instanceof CurrentPasswordWrongError) {
        setError('currentPassword', { message: error.message }, { shouldFocus: true });
      }
      const reason =
        error instanceof CurrentPasswordWrongError || error instanceof AccountFrozenError
          ? error.message
          : connectionProblemMessage(error);
      toast.error(PASSWORD_UPDATE_FAILED_MESSAGE, { description: reason });
      return;
    }
    reset();
    toast.success(PASSWORD_UPDATED_MESSAGE);
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <FormField label="Current password" error={errors.currentPassword?.message}>
        {(control) => (
          <PasswordInput autoComplete="current-password" {...control} {...register('currentPassword')} />
        )}
      </FormField>
      <NewPasswordFields
        newPassword={{ field: register('newPassword'), error: errors.newPassword?.message }}
        confirmPassword={{ field: register('confirmPassword'), error: errors.confirmPassword?.message }}
      />
      <Button type="submit" disabled={isSubmitting} className="justify-self-start">
        {isSubmitting ? 'Updating…' : 'Update password'}
      </Button>
    </form>
  );
}
