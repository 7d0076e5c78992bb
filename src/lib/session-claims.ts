import type { Session } from '@supabase/supabase-js';

/**
 * The claims of a session's access token (its JWT's middle part, base64url-encoded JSON), as GoTrue wrote
 * them; the signature is the server's to check. Throws when the token cannot be read.
 */
export function sessionClaims(session: Pick<Session, 'access_token'>): Record<string, unknown> {
  const payload = session.access_token.split('.')[1];
  if (!payload) throw new Error('The access token is not a JWT');
  const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  const claims: unknown = JSON.parse(
    new TextDecoder().decode(Uint8Array.from(binary, (character) => character.charCodeAt(0))),
  );
  if (typeof claims !== 'object' || claims === null) throw new Error('The access token holds no claims');
  return claims as Record<string, unknown>;
}
