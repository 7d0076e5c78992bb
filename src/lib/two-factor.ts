import { isAuthApiError } from '@supabase/supabase-js';
import { queryClient } from './query-client';
import { supabase } from './supabase';

/**
 * Two-factor authentication with Supabase Auth's TOTP factors, through `supabase.auth.mfa` exactly as on
 * hosted Supabase. A session is `aal1` after the password and `aal2` once a code of a verified factor was
 * checked in it; admins work only at aal2, and a person with a factor withdraws only there.
 */

export const WRONG_CODE_MESSAGE = 'That code is not right. Check your authenticator app and try again.';
export const CODE_CHECK_FAILED_MESSAGE = 'The code could not be checked. Please try again.';

function codeErrorMessage(error: unknown): string {
  if (isAuthApiError(error) && error.code === 'mfa_verification_failed') return WRONG_CODE_MESSAGE;
  return CODE_CHECK_FAILED_MESSAGE;
}

/**
 * Checks a code of the factor (challenge, then verify): this session moves to aal2. Realtime gets the new
 * token (supabase-js hands it one only on SIGNED_IN and TOKEN_REFRESHED), and what was read at aal1 is
 * read again (an admin's lists come back empty there).
 */
export async function verifyFactorCode(factorId: string, code: string): Promise<void> {
  const { data, error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  if (error) throw new Error(codeErrorMessage(error), { cause: error });
  await supabase.realtime.setAuth(data.access_token);
  await queryClient.invalidateQueries();
}

/**
 * Checks a code of any of the person's verified authenticator apps (a backup app's works as well as the
 * first's): each app in turn until one accepts it; a code none accepts is wrong.
 */
export async function verifyTotpCode(code: string): Promise<void> {
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw new Error(CODE_CHECK_FAILED_MESSAGE, { cause: error });
  if (data.totp.length === 0) throw new Error('Two-factor authentication is not set up for this account');
  let refusal: unknown;
  for (const factor of data.totp) {
    try {
      await verifyFactorCode(factor.id, code);
      return;
    } catch (failure) {
      // Only a wrong code sends it on to the next app; any other failure is the answer.
      if (!(failure instanceof Error && failure.message === WRONG_CODE_MESSAGE)) throw failure;
      refusal = failure;
    }
  }
  throw refusal;
}
