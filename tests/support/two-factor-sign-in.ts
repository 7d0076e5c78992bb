import type { Session, SupabaseClient } from '@supabase/supabase-js';
import { totpCode } from '../../devstack/src/gateway/auth/totp';

export interface TwoFactorAccount {
  email: string;
  password: string;
  /** The base32 secret of the account's verified TOTP factor (the seeded admin's is in devstack/src/config). */
  totpSecret: string;
}

const attempts = 5;

/**
 * Signs `client` in as a person with a TOTP factor does: the password (aal1), then a code computed from
 * their secret for their verified factor (aal2). Verifying a code ends the person's other sessions still at
 * aal1 (GoTrue's InvalidateSessionsWithAALLessThan), so two sign-ins of one person at the same moment can
 * end each other's first step; the loser signs in again, as a person would.
 */
export async function signInWithTotp(
  client: Pick<SupabaseClient, 'auth' | 'realtime'>,
  account: TwoFactorAccount,
): Promise<Session> {
  for (let attempt = 1; ; attempt++) {
    const signedIn = await client.auth.signInWithPassword({
      email: account.email,
      password: account.password,
    });
    if (signedIn.error) throw signedIn.error;
    const factor = signedIn.data.user.factors?.find(
      (candidate) => candidate.factor_type === 'totp' && candidate.status === 'verified',
    );
    if (!factor) throw new Error(`${account.email} has no verified TOTP factor`);
    const verified = await client.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: totpCode(account.totpSecret),
    });
    if (!verified.error) {
      const { data } = await client.auth.getSession();
      if (!data.session) throw new Error('no session after the code was verified');
      // supabase-js hands Realtime a new token on SIGNED_IN and TOKEN_REFRESHED only, not after a verified
      // code: without this, live changes would still be checked against the aal1 token (as the app does too).
      await client.realtime.setAuth(data.session.access_token);
      return data.session;
    }
    if (verified.error.code !== 'session_not_found' || attempt === attempts) throw verified.error;
  }
}
