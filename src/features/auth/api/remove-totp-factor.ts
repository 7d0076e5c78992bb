import { supabase } from '@/lib/supabase';
import { verifyTotpCode } from '@/lib/two-factor';
import { getTotpFactors } from './get-totp-factor';

/**
 * Turns two-factor authentication off: a fresh code of one of the person's apps first (Auth removes a verified
 * factor only from an aal2 session, and the person proves they still hold one), then every app, the backup
 * too. The session is refreshed, so its token and user no longer claim the removed factors.
 */
export async function removeTotpFactors(code: string): Promise<void> {
  await verifyTotpCode(code);
  for (const factor of await getTotpFactors()) {
    const { error } = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    if (error) throw error;
  }
  const refreshed = await supabase.auth.refreshSession();
  if (refreshed.error) throw refreshed.error;
}
