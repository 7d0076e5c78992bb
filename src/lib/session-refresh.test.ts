// @vitest-environment jsdom
import type { Session } from '@supabase/supabase-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSessionRefresh } from './session-refresh';

const hourInSeconds = 3600;

/** An auth client holding one session that refreshes into a fresh one-hour token. */
function authHoldingTokenValidFor(secondsLeft: number) {
  let session = {
    access_token: 'access',
    refresh_token: 'refresh',
    token_type: 'bearer',
    expires_in: hourInSeconds,
    expires_at: Math.floor(Date.now() / 1000) + secondsLeft,
  } as Session;
  const auth = {
    refreshes: 0,
    getSession: async () => ({ data: { session } }),
    refreshSession: async () => {
      auth.refreshes += 1;
      session = { ...session, expires_at: Math.floor(Date.now() / 1000) + hourInSeconds };
      return { data: { session }, error: null };
    },
  };
  return auth;
}

let stop: () => void = () => {};
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  stop();
});

describe('access token refresh', () => {
  it('does not refresh a token with more than 5 minutes left', async () => {
    const auth = authHoldingTokenValidFor(10 * 60);
    stop = startSessionRefresh(auth);
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    expect(auth.refreshes).toBe(0);
  });

  it('refreshes the token once it is within 5 minutes of expiry', async () => {
    const auth = authHoldingTokenValidFor(10 * 60);
    stop = startSessionRefresh(auth);
    await vi.advanceTimersByTimeAsync(5 * 60_000 + 30_000);
    expect(auth.refreshes).toBe(1);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(auth.refreshes).toBe(1);
  });

  it('refreshes at once when a tab that slept past the margin wakes up', async () => {
    const auth = authHoldingTokenValidFor(20 * 60);
    stop = startSessionRefresh(auth);
    await vi.advanceTimersByTimeAsync(0);
    // The machine sleeps: the clock moves on while no timer runs.
    vi.setSystemTime(Date.now() + 18 * 60_000);
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(auth.refreshes).toBe(1);
  });

  it('stops checking once stopped', async () => {
    const auth = authHoldingTokenValidFor(10 * 60);
    startSessionRefresh(auth)();
    await vi.advanceTimersByTimeAsync(20 * 60_000);
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(auth.refreshes).toBe(0);
  });
});
