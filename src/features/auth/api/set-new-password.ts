import { isAuthApiError, isAuthSessionMissingError } from '@supabase/supabase-js';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { connectionProblemMessage } from '../utils/auth-errors';
import { confirmationMatches, newPasswordField } from '../utils/new-password';
import { AccountFrozenError, assertNotFrozen } from './account-frozen';
import {
  SAME_PASSWORD_MESSAGE,
  WEAK_PASSWORD_MESSAGE,
  RESET_LINK_SESSION_ENDED_MESSAGE,
  NEW_PASSWORDS_MISMATCH_MESSAGE,
} from './auth-messages';

/** The reset link's form: a new password (as strong as sign-up asks) typed twice. */
export const setNewPasswordInputSchema = z
  .object({ newPassword: newPasswordField, confirmPassword: z.string() })
  .refine(...confirmationMatches('newPassword', NEW_PASSWORDS_MISMATCH_MESSAGE));

export type SetNewPasswordInput = z.infer<typeof setNewPasswordInputSchema>;

/**
 * What went wrong, in plain words, for GoTrue's refusals of `PUT /user` (supabase/auth
 * internal/api/user.go: `same_password`, `weak_password`; `session_not_found` once the link's session
 * has ended), `field` telling which one is about the password typed.
 */
export function setNewPasswordError(error: unknown): { message: string; field?: 'newPassword' } {
  if (isAuthApiError(error) && error.code === 'same_password') {
    return { message: SAME_PASSWORD_MESSAGE, field: 'newPassword' };
  }
  if (isAuthApiError(error) && error.code === 'weak_password') {
    return { message: WEAK_PASSWORD_MESSAGE, field: 'newPassword' };
  }
  if (error instanceof AccountFrozenError) return { message: error.message };
  const connectionProblem = connectionProblemMessage(error);
  if (connectionProblem) return { message: connectionProblem };
  if (isAuthSessionMissingError(error) || (isAuthApiError(error) && error.code === 'session_not_found')) {
    return { message: RESET_LINK_SESSION_ENDED_MESSAGE };
  }
  return {
    message: error instanceof Error && error.message ? error.message : RESET_LINK_SESSION_ENDED_MESSAGE,
  };
}

/** Sets the password of the person the reset link signed in; they stay signed in. */
export async function setNewPassword({ newPassword }: SetNewPasswordInput) {
  await assertNotFrozen();
  const { error } = await supabase.auth.updateUser({ password: newPassword });
  if (error) throw error;
}

export function useSetNewPassword() {
  return useMutation({ mutationFn: setNewPassword });
}
