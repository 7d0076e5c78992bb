import type { Session } from '@supabase/supabase-js';
import { sessionClaims } from '@/lib/session-claims';

/** Authentication methods of a session started from an e-mailed link (GoTrue's `amr` claim). */
const emailLinkMethods = new Set(['otp', 'recovery']);

/**
 * Whether the session was started by the password-reset link rather than by a password. Only such a
 * session may set a new password without the current one; everyone else changes it on /user/account.
 */
export function signedInByEmailLink(session: Session): boolean {
  try {
    const claims = sessionClaims(session) as { amr?: Array<{ method?: string } | string> };
    return (claims.amr ?? []).some((entry) =>
      emailLinkMethods.has(typeof entry === 'string' ? entry : (entry.method ?? '')),
    );
  } catch {
    return false;
  }
}
