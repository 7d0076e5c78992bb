import { supabase } from '@/lib/supabase';

/**
 * Signs the person in from a reset e-mail's `token_hash`. Unlike the PKCE link's `?code=`, which only the
 * browser that asked can exchange, the hash is verified by Auth alone, so the link works on any device
 * (Supabase's advice for links opened elsewhere, e.g. mail read on a phone).
 */
export async function verifyResetLink(tokenHash: string) {
  const { error } = await supabase.auth.verifyOtp({ type: 'recovery', token_hash: tokenHash });
  if (error) throw error;
}
