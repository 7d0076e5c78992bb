import type { Session, SupabaseClient } from '@supabase/supabase-js';
import { totpCode, totpStep } from '../../devstack/src/gateway/auth/totp';

export interface TwoFactorAccount {
  email: string;
  password: string;
  /** The base32 secret of the account's verified TOTP factor (the seeded admin's is in devstack/src/config). */
  totpSecret: string;
}

const attempts = 5;

const stepMs = 30_000;
/** Per secret, the last step whose code this process handed out. */
const lastStepUsed = new Map<string, number>();

/**
 * A code for `secret` this process has not used yet, as an authenticator app shows a new one every 30 s:
 * Auth refuses a code a second time (RFC 6238 §5.2). The current step's code, else the next step's
 * (accepted with one step of skew); past that, it waits for the clock's next step.
 */
export async function unusedTotpCode(secret: string): Promise<string> {
  const current = totpStep();
  const step = Math.max(current, (lastStepUsed.get(secret) ?? current - 1) + 1);
  lastStepUsed.set(secret, step);
  const waitMs = (step - 1) * stepMs - Date.now();
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs + 50));
  return totpCode(secret, new Date(step * stepMs));
}

/**
 * Signs `client` in as a person with a TOTP factor does: the password (aal1), then a code computed from
 * their secret for their verified factor (aal2). Verifying a code ends the person's other sessions still at
 * aal1 (GoTrue's InvalidateSessionsWithAALLessThan), so two sign-ins of one person at the same moment can
 * end each other's first step, and another process may have used this step's code for the account; the
 * loser signs in again with a later code, as a person would.
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
      code: await unusedTotpCode(account.totpSecret),
    });
    if (!verified.error) {
      const { data } = await client.auth.getSession();
      if (!data.session) throw new Error('no session after the code was verified');
      // supabase-js hands Realtime a new token on SIGNED_IN and TOKEN_REFRESHED only, not after a verified
      // code: without this, live changes would still be checked against the aal1 token (as the app does too).
      await client.realtime.setAuth(data.session.access_token);
      return data.session;
    }
    // Another process (a test file, a worker) may have used this step's code for the same account.
    const retried = ['session_not_found', 'mfa_verification_failed'].includes(verified.error.code ?? '');
    if (!retried || attempt === attempts) throw verified.error;
  }
}
