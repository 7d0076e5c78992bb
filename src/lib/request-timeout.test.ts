// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import {
  createFetchWithTimeout,
  desktopRequestTimeoutMs,
  REQUEST_TIMEOUT_MESSAGE,
  requestTimeoutMs,
  smallScreenRequestTimeoutMs,
} from './request-timeout';

/** A network that never answers until the request is aborted, as a stalled connection does. */
const stalledNetwork: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
  });

function screenOf(widthPx: number) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(max-width: 767px)' && widthPx <= 767,
  }));
}

describe('Supabase request time-out', () => {
  it('is 30 seconds on a desktop screen and 60 seconds on a small screen', () => {
    screenOf(1280);
    expect(requestTimeoutMs()).toBe(desktopRequestTimeoutMs);
    expect(desktopRequestTimeoutMs).toBe(30_000);
    screenOf(390);
    expect(requestTimeoutMs()).toBe(smallScreenRequestTimeoutMs);
    expect(smallScreenRequestTimeoutMs).toBe(60_000);
  });

  it('fails a stalled desktop request after 30 seconds with a clear message', async () => {
    vi.useFakeTimers();
    screenOf(1280);
    const request = createFetchWithTimeout(stalledNetwork)('http://api.test/rest/v1/profiles');
    let settled = false;
    void request.catch(() => (settled = true));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(request).rejects.toThrow(REQUEST_TIMEOUT_MESSAGE);
  });

  it('waits 60 seconds on a small screen before giving up', async () => {
    vi.useFakeTimers();
    screenOf(390);
    const request = createFetchWithTimeout(stalledNetwork)('http://api.test/auth/v1/token');
    let settled = false;
    void request.catch(() => (settled = true));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(request).rejects.toThrow(REQUEST_TIMEOUT_MESSAGE);
  });

  it('passes a timely answer through untouched', async () => {
    const answer = new Response('{"ok":true}', { status: 200 });
    const response = await createFetchWithTimeout(async () => answer)('http://api.test/auth/v1/health');
    expect(response).toBe(answer);
  });

  it("keeps the caller's own abort as it was, not as a time-out", async () => {
    const caller = new AbortController();
    const request = createFetchWithTimeout(stalledNetwork)('http://api.test/rest/v1/x', {
      signal: caller.signal,
    });
    caller.abort(new Error('navigated away'));
    await expect(request).rejects.toThrow('navigated away');
  });
});
