import { describe, expect, it } from 'vitest';
import { AuthError } from './errors';
import { errorRedirectParams } from './verify';

// supabase/auth internal/api/verify.go `prepErrorRedirectURL`
describe('a failed mailed link’s redirect', () => {
  it('names the error as OAuth does, with GoTrue’s code and message', () => {
    const expired = new AuthError(403, 'otp_expired', 'Email link is invalid or has expired');
    expect(Object.fromEntries(errorRedirectParams(expired))).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    });
    expect(errorRedirectParams(new AuthError(400, 'validation_failed', 'x')).get('error')).toBe(
      'invalid_request',
    );
  });
});
