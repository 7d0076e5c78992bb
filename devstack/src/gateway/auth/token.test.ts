import { describe, expect, it } from 'vitest';
import { grantTypeOf } from './token';

const tokenUrl = (grant?: string) =>
  new URL(`http://localhost/auth/v1/token${grant ? `?grant_type=${grant}` : ''}`);

// supabase/auth internal/api/token.go `Token`
describe('the grant of POST /token', () => {
  it.each(['password', 'refresh_token', 'pkce'])('serves grant_type=%s', (grant) => {
    expect(grantTypeOf(tokenUrl(grant))).toBe(grant);
  });

  it('refuses an unknown or missing grant as GoTrue: 400 unsupported_grant_type', () => {
    for (const grant of ['client_credentials', undefined]) {
      expect(() => grantTypeOf(tokenUrl(grant))).toThrow(
        expect.objectContaining({ status: 400, message: 'unsupported_grant_type' }),
      );
    }
  });

  it.each(['id_token', 'web3'])(
    'takes grant_type=%s, answered as hosted answers it switched off',
    (grant) => {
      expect(grantTypeOf(tokenUrl(grant))).toBe(grant);
    },
  );
});
