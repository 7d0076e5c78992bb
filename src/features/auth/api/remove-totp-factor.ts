import { supabase } from '@/lib/supabase';
import { verifyFactorCode } from '@/lib/two-factor';

/**
 * Turns two-factor authentication off: a fresh code of the factor first (Auth removes a verified factor
 * only from an aal2 session, and the person proves they still hold it), then the factor. The session is
 * refreshed, so its token and user no longer claim the removed factor.
 */
export async function removeTotpFactor(factorId: string, code: string): Promise<void> {
  await verifyFactorCode(factorId, code);
  const { error } = await supabase.auth.mfa.unenroll({ factorId });
  if (error) throw error;
  const refreshed = await supabase.auth.refreshSession();
  if (refreshed.error) throw refreshed.error;
}
