import type { AuthenticatorAssuranceLevels, Session } from '@supabase/supabase-js';
import { sessionClaims } from './session-claims';

/**
 * A session's authenticator assurance level, as Supabase Auth's `mfa.getAuthenticatorAssuranceLevel` reads
 * it from the session (auth-js `_getAuthenticatorAssuranceLevel`): the access token's `aal` claim, and
 * `aal2` next once the person has a verified factor. Read here from the session the app already holds,
 * so a signed-in area's gate decides in the render that receives the session: no second render behind a
 * "Loading…" while supabase-js hands the same session back.
 */
export interface AssuranceLevel {
  /** `aal2` when this session verified a code. */
  current: AuthenticatorAssuranceLevels | null;
  /** `aal2` when the person has a verified factor, so this session can (and should) reach aal2. */
  next: AuthenticatorAssuranceLevels | null;
}

export const UNREADABLE_SESSION_MESSAGE = 'Your session cannot be read. Please log in again.';

/** The level of `session` and the one it can reach; both `null` for nobody signed in. */
export function assuranceLevelOf(session: Session | null): AssuranceLevel {
  if (!session) return { current: null, next: null };
  let current: AuthenticatorAssuranceLevels | null;
  try {
    current = (sessionClaims(session).aal as AuthenticatorAssuranceLevels | undefined) ?? null;
  } catch (cause) {
    throw new Error(UNREADABLE_SESSION_MESSAGE, { cause });
  }
  const hasVerifiedFactor = (session.user.factors ?? []).some((factor) => factor.status === 'verified');
  return { current, next: hasVerifiedFactor ? 'aal2' : current };
}

/** Whether this session must still enter a code: the person has a factor, the session is at aal1. */
export function codeStillNeeded({ current, next }: AssuranceLevel): boolean {
  return next === 'aal2' && current !== 'aal2';
}
