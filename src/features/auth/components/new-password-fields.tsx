import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';

interface RegisteredField {
  field: UseFormRegisterReturn;
  error?: string;
}

/** "New password" and "Confirm new password": the pair every form that replaces a password asks for. */
export function NewPasswordFields({
  newPassword,
  confirmPassword,
}: {
  newPassword: RegisteredField;
  confirmPassword: RegisteredField;
}) {
  return (
    <>
      <FormField label="New password" error={newPassword.error}>
        {(control) => <PasswordInput autoComplete="new-password" {...control} {...newPassword.field} />}
      </FormField>
      <FormField label="Confirm new password" error={confirmPassword.error}>
        {(control) => <PasswordInput autoComplete="new-password" {...control} {...confirmPassword.field} />}
      </FormField>
    </>
  );
}
