// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { hasStoredSession, sessionStorageKey } from './stored-session';

afterEach(() => localStorage.clear());

describe('hasStoredSession', () => {
  it("is true only while supabase-js's session key is in this browser's storage", () => {
    expect(hasStoredSession()).toBe(false);
    localStorage.setItem(sessionStorageKey, '{"access_token":"…"}');
    expect(hasStoredSession()).toBe(true);
  });

  it("uses supabase-js's default key for the configured API host", () => {
    expect(sessionStorageKey).toBe('sb-127-auth-token');
  });
});
