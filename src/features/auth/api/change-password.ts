import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { passwordCheckClient, supabase } from '@/lib/supabase';
import { confirmationMatches, NEW_PASSWORDS_MISMATCH_MESSAGE } from '../utils/new-password';

export const changePasswordInputSchema = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required'),
    newPassword: z.string().min(6, 'Password should be at least 6 characters long'),
    confirmPassword: z.string(),
  })
  .refine(...confirmationMatches('newPassword', NEW_PASSWORDS_MISMATCH_MESSAGE));

export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

export const PASSWORD_UPDATED_MESSAGE = 'Password updated successfully';
export const PASSWORD_UPDATE_FAILED_MESSAGE = 'Failed to update password';
export const CURRENT_PASSWORD_WRONG_MESSAGE = 'Your current password is incorrect.';

export class CurrentPasswordWrongError extends Error {
  constructor() {
    super(CURRENT_PASSWORD_WRONG_MESSAGE);
    this.name = 'CurrentPasswordWrongError';
  }
}

/**
 * The server checks the current password (by signing in with it, on a separate in-memory client whose
 * session is ended at once) before the new one is set, so an unattended signed-in browser is not enough
 * to take over the account. The new password then ends the person's other sessions, as Supabase does.
 */
export async function changePassword({
  email,
  currentPassword,
  newPassword,
}: ChangePasswordInput & { email: string }) {
  const check = await passwordCheckClient.auth.signInWithPassword({ email, password: currentPassword });
  if (check.error) {
    if (check.error.code === 'invalid_credentials') throw new CurrentPasswordWrongError();
    throw check.error;
  }
  await passwordCheckClient.auth.signOut({ scope: 'local' });
  const { error } = await supabase.auth.updateUser({ password: newPassword });
  if (error) throw error;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
