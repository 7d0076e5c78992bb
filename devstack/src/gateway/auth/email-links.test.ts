import { describe, expect, it } from 'vitest';
import { codeChallengeOf } from './flow-state';

const challenge = 'a'.repeat(43);

// supabase/auth internal/api/pkce.go `validatePKCEParams`
describe('a PKCE code challenge', () => {
  it('is optional, but both parts or neither', () => {
    expect(codeChallengeOf({})).toBeUndefined();
    expect(() => codeChallengeOf({ code_challenge: challenge })).toThrow(
      'PKCE flow requires code_challenge_method and code_challenge',
    );
  });

  it('is 43 to 128 unreserved characters with method s256 or plain', () => {
    expect(codeChallengeOf({ code_challenge: challenge, code_challenge_method: 'S256' })).toEqual({
      challenge,
      method: 's256',
    });
    expect(() => codeChallengeOf({ code_challenge: 'short', code_challenge_method: 's256' })).toThrow(
      'code challenge has to be between 43 and 128 characters',
    );
    expect(() => codeChallengeOf({ code_challenge: `${challenge}!`, code_challenge_method: 's256' })).toThrow(
      /can only contain alphanumeric characters/,
    );
    expect(() => codeChallengeOf({ code_challenge: challenge, code_challenge_method: 'md5' })).toThrow(
      'unsupported code_challenge method "md5"',
    );
  });
});
