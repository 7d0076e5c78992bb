import type { Session } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { signedInByEmailLink } from './signed-in-by-email-link';

/** A session whose access token carries these claims (the signature does not matter to the browser). */
function sessionWithClaims(claims: object): Session {
  const encode = (part: object) =>
    btoa(JSON.stringify(part)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return { access_token: `${encode({ alg: 'HS256' })}.${encode(claims)}.signature` } as Session;
}

describe('a session started from the reset link', () => {
  it('is recognised by its one-time-link method', () => {
    expect(signedInByEmailLink(sessionWithClaims({ amr: [{ method: 'otp', timestamp: 1 }] }))).toBe(true);
    expect(signedInByEmailLink(sessionWithClaims({ amr: ['recovery'] }))).toBe(true);
  });

  it('is not confused with a password log-in', () => {
    expect(signedInByEmailLink(sessionWithClaims({ amr: [{ method: 'password', timestamp: 1 }] }))).toBe(
      false,
    );
    expect(signedInByEmailLink(sessionWithClaims({}))).toBe(false);
  });

  it('treats an unreadable token as not from a link', () => {
    expect(signedInByEmailLink({ access_token: 'garbage' } as Session)).toBe(false);
  });
});
