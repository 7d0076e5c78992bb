import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { emailField } from '../utils/email-field';

export const passwordResetInputSchema = z.object({ email: emailField });

export type PasswordResetInput = z.infer<typeof passwordResetInputSchema>;

/** The e-mailed link signs the person in on /update-password, where they choose a new password. */
export async function sendPasswordReset({ email }: PasswordResetInput) {
  const { error } = await supabase.auth.resetPasswordForEmail(email, {
    redirectTo: `${window.location.origin}/update-password`,
  });
  if (error) throw error;
}

export function useSendPasswordReset() {
  return useMutation({ mutationFn: sendPasswordReset });
}
