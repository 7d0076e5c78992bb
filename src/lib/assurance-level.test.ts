import type { Factor, Session } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { assuranceLevelOf, codeStillNeeded, UNREADABLE_SESSION_MESSAGE } from './assurance-level';

const base64Url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** A session as supabase-js holds it: an access token carrying `claims`, and the person's factors. */
function sessionWith(claims: object, factors: Pick<Factor, 'status'>[] = []): Session {
  const token = [base64Url('{"alg":"HS256","typ":"JWT"}'), base64Url(JSON.stringify(claims)), 'signature'];
  return { access_token: token.join('.'), user: { id: 'person', factors } } as unknown as Session;
}

describe('assuranceLevelOf', () => {
  it('reads a password-only session of a person without a factor as aal1, with nothing more to reach', () => {
    const level = assuranceLevelOf(sessionWith({ aal: 'aal1' }));
    expect(level).toEqual({ current: 'aal1', next: 'aal1' });
    expect(codeStillNeeded(level)).toBe(false);
  });

  it('asks a person with a verified factor for a code until the session is aal2', () => {
    const atPassword = assuranceLevelOf(sessionWith({ aal: 'aal1' }, [{ status: 'verified' }]));
    expect(atPassword).toEqual({ current: 'aal1', next: 'aal2' });
    expect(codeStillNeeded(atPassword)).toBe(true);
    const afterCode = assuranceLevelOf(sessionWith({ aal: 'aal2' }, [{ status: 'verified' }]));
    expect(codeStillNeeded(afterCode)).toBe(false);
  });

  it('does not count a factor whose enrolment was never confirmed', () => {
    expect(assuranceLevelOf(sessionWith({ aal: 'aal1' }, [{ status: 'unverified' }]))).toEqual({
      current: 'aal1',
      next: 'aal1',
    });
  });

  it('reads a token whose claims hold letters outside ASCII', () => {
    const claims = { aal: 'aal2', user_metadata: { full_name: 'Zoë Ångström 山田' } };
    expect(assuranceLevelOf(sessionWith(claims)).current).toBe('aal2');
  });

  it('has no level for nobody signed in', () => {
    expect(assuranceLevelOf(null)).toEqual({ current: null, next: null });
  });

  it('refuses a session whose token is not a JWT, rather than guessing its level', () => {
    const broken = { ...sessionWith({}), access_token: 'not-a-token' };
    expect(() => assuranceLevelOf(broken)).toThrow(UNREADABLE_SESSION_MESSAGE);
    expect(() => assuranceLevelOf({ ...broken, access_token: 'a.%%%.b' })).toThrow(
      UNREADABLE_SESSION_MESSAGE,
    );
  });
});
