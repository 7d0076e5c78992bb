import { describe, expect, it } from 'vitest';
import { logoutScopeOf } from './user';

const logoutUrl = (scope?: string) => new URL(`http://localhost/logout${scope ? `?scope=${scope}` : ''}`);

// supabase/auth internal/api/logout.go
describe('the scope of POST /logout', () => {
  it('is global unless another is named', () => {
    expect(logoutScopeOf(logoutUrl())).toBe('global');
    expect(logoutScopeOf(logoutUrl('others'))).toBe('others');
  });

  it('refuses a scope GoTrue does not know', () => {
    expect(() => logoutScopeOf(logoutUrl('everyone'))).toThrow(
      expect.objectContaining({ status: 400, code: 'validation_failed' }),
    );
  });
});
