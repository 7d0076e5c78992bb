import { describe, expect, it } from 'vitest';
import { checkPasswordStrength } from './context';

// supabase/auth internal/api/password.go `checkPasswordStrength`
describe('a new password’s strength', () => {
  it('must reach the minimum length: 422 weak_password naming it', () => {
    expect(() => checkPasswordStrength('short', 6)).toThrow(
      expect.objectContaining({
        status: 422,
        code: 'weak_password',
        message: 'Password should be at least 6 characters.',
      }),
    );
  });

  it('may not pass bcrypt’s 72 bytes, counted in UTF-8', () => {
    expect(() => checkPasswordStrength('é'.repeat(37), 6)).toThrow(
      expect.objectContaining({ status: 400, code: 'validation_failed' }),
    );
    expect(() => checkPasswordStrength('é'.repeat(36), 6)).not.toThrow();
  });
});
