import { describe, expect, it } from 'vitest';
import { hasVerifiedFactor, isRecoverySession, needsReauthentication, nonceHash } from './password-change';
import type { UserRow } from './user-json';

// supabase/auth internal/api/user.go `UserUpdate`, internal/models/factor.go `IsRecovery`,
// internal/crypto/crypto.go `GenerateTokenHash`
describe('the rules of a password change', () => {
  it('counts a session from a mailed link or code as recovery, not one from a password', () => {
    const at = 1_700_000_000;
    expect(isRecoverySession([{ method: 'otp', timestamp: at }])).toBe(true);
    expect(
      isRecoverySession([
        { method: 'totp', timestamp: at },
        { method: 'recovery', timestamp: at },
      ]),
    ).toBe(true);
    expect(isRecoverySession([{ method: 'password', timestamp: at }])).toBe(false);
  });

  it('asks for a nonce (secure_password_change) only once the session is more than 24 hours old', () => {
    const now = new Date('2026-01-02T12:00:00Z');
    expect(needsReauthentication(new Date('2026-01-01T12:00:01Z'), now)).toBe(false);
    expect(needsReauthentication(new Date('2026-01-01T11:59:59Z'), now)).toBe(true);
    expect(needsReauthentication(undefined, now)).toBe(true);
  });

  it('stores a nonce as SHA-224 of the address and the code', () => {
    expect(nonceHash('a@b.co', '123456')).toMatch(/^[0-9a-f]{56}$/);
    expect(nonceHash('a@b.co', '123456')).not.toBe(nonceHash('c@b.co', '123456'));
  });

  it('asks aal2 of a person with a verified factor only', () => {
    const factor = (status: string) => ({
      id: 'f',
      factor_type: 'totp',
      status,
      created_at: '',
      updated_at: '',
      last_challenged_at: null,
    });
    const user = (factors: UserRow['factors']) => ({ factors }) as UserRow;
    expect(hasVerifiedFactor(user([factor('unverified')]))).toBe(false);
    expect(hasVerifiedFactor(user([factor('unverified'), factor('verified')]))).toBe(true);
    expect(hasVerifiedFactor(user(null))).toBe(false);
  });
});
