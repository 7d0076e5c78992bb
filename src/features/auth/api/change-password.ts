import { isAuthApiError } from '@supabase/supabase-js';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { confirmationMatches } from '../utils/new-password';
import { assertNotFrozen } from './account-frozen';
import { CURRENT_PASSWORD_WRONG_MESSAGE, NEW_PASSWORDS_MISMATCH_MESSAGE } from './auth-messages';

export const changePasswordInputSchema = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required'),
    newPassword: z.string().min(6, 'Password should be at least 6 characters long'),
    confirmPassword: z.string(),
  })
  .refine(...confirmationMatches('newPassword', NEW_PASSWORDS_MISMATCH_MESSAGE));

export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

export class CurrentPasswordWrongError extends Error {
  constructor() {
    super(CURRENT_PASSWORD_WRONG_MESSAGE);
    this.name = 'CurrentPasswordWrongError';
  }
}

/** Auth's refusals of a missing or wrong `current_password` (supabase/auth internal/api/user.go). */
const currentPasswordRefusals = new Set(['current_password_required', 'current_password_invalid']);

/**
 * Auth checks the current password itself (`[auth.email] require_current_password`), so an unattended
 * signed-in browser is not enough to take over the account. The new password then ends the person's other
 * sessions, as Supabase does.
 */
export async function changePassword({ currentPassword, newPassword }: ChangePasswordInput) {
  await assertNotFrozen();
  const { error } = await supabase.auth.updateUser({
    password: newPassword,
    current_password: currentPassword,
  });
  if (isAuthApiError(error) && currentPasswordRefusals.has(error.code ?? '')) {
    throw new CurrentPasswordWrongError();
  }
  if (error) throw error;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
