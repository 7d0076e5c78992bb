import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { loadSupabase } from '@/lib/session-client';
import { assuranceLevelOf, codeStillNeeded } from '@/lib/assurance-level';
import { connectionProblemMessage } from '../utils/auth-errors';
import { emailField } from '../utils/email-field';
import { LOG_IN_FAILED_MESSAGE } from './auth-messages';

export const logInInputSchema = z.object({
  email: emailField,
  password: z.string().min(1, 'Password is required').min(6, 'Password must be at least 6 characters'),
});

export type LogInInput = z.infer<typeof logInInputSchema>;

/** What to tell the person when logging in failed: their credentials, or the connection. */
export function logInErrorMessage(error: unknown): string {
  return connectionProblemMessage(error) ?? LOG_IN_FAILED_MESSAGE;
}

/** Signs in with the password; `codeNeeded` when the person has two-factor authentication (aal2 next). */
export async function logIn({ email, password }: LogInInput): Promise<{ codeNeeded: boolean }> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return { codeNeeded: codeStillNeeded(assuranceLevelOf(data.session)) };
}

export function useLogIn() {
  return useMutation({ mutationFn: logIn });
}
