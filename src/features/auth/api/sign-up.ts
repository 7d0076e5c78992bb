import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { loadSupabase } from '@/lib/session-client';
import { connectionProblemMessage } from '../utils/auth-errors';
import { emailField } from '../utils/email-field';
import { confirmationMatches, newPasswordField, PASSWORDS_MISMATCH_MESSAGE } from '../utils/new-password';
import { readWalletCode } from './read-wallet-code';

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

export const CONFIRM_EMAIL_MESSAGE =
  'Signup successful! Please confirm your email address: the link we sent you opens your wallet.';
export const SIGN_UP_FAILED_MESSAGE = 'Signup failed. Please try again.';
export const EMAIL_TAKEN_MESSAGE =
  'An account with this email already exists. Please log in or reset your password.';

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
