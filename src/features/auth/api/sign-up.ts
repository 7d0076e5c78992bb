import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { loadSupabase } from '@/lib/session-client';
import { connectionProblemMessage } from '../utils/auth-errors';
import { emailField } from '../utils/email-field';
import { confirmationMatches, newPasswordField } from '../utils/new-password';
import { readWalletCode } from './read-wallet-code';
import { SIGN_UP_FAILED_MESSAGE, EMAIL_TAKEN_MESSAGE, PASSWORDS_MISMATCH_MESSAGE } from './auth-messages';

export const signUpInputSchema = z
  .object({
    fullName: z.string().trim().min(1, 'Full name is required'),
    email: emailField,
    password: newPasswordField,
    confirmPassword: z.string(),
  })
  .refine(...confirmationMatches('password', PASSWORDS_MISMATCH_MESSAGE));

export type SignUpInput = z.infer<typeof signUpInputSchema>;

export function signUpSucceededMessage(walletCode: string) {
  return `Signup successful! Your wallet code is: ${walletCode}`;
}

export function signUpErrorMessage(error: unknown): string {
  if (error instanceof Error && 'code' in error && error.code === 'user_already_exists') {
    return EMAIL_TAKEN_MESSAGE;
  }
  return (
    connectionProblemMessage(error) ??
    (error instanceof Error && error.message ? error.message : SIGN_UP_FAILED_MESSAGE)
  );
}

/** Where the mailed confirmation link lands (projects with e-mail confirmations on, as hosted ones start). */
export const confirmedSignUpPath = '/confirm-signup';

/**
 * Creates the account; the database makes the profile and its wallet code (read back here). With
 * confirmations on there is no session yet (`walletCode: null`): the mailed link signs the person in.
 */
export async function signUp({ fullName, email, password }: SignUpInput) {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.auth.signUp({
    email,
    password,
    options: {
      data: { full_name: fullName },
      emailRedirectTo: `${window.location.origin}${confirmedSignUpPath}`,
    },
  });
  if (error) throw error;
  if (!data.session || !data.user) return { walletCode: null };
  return { walletCode: await readWalletCode(data.user.id) };
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
