/** Spec §9: Supabase requests give up after 30 s on desktop and 60 s on small screens (slower networks). */
export const desktopRequestTimeoutMs = 30_000;
export const smallScreenRequestTimeoutMs = 60_000;
const smallScreenQuery = '(max-width: 767px)';

export const REQUEST_TIMEOUT_MESSAGE =
  'The server is taking too long to respond. Please check your connection and try again.';

/** Raised instead of waiting forever, so every screen can show a clear message rather than a spinner. */
export class RequestTimeoutError extends Error {
  constructor() {
    super(REQUEST_TIMEOUT_MESSAGE);
    this.name = 'RequestTimeoutError';
  }
}

export function requestTimeoutMs(): number {
  const smallScreen = typeof window !== 'undefined' && window.matchMedia?.(smallScreenQuery).matches;
  return smallScreen ? smallScreenRequestTimeoutMs : desktopRequestTimeoutMs;
}

/**
 * A `fetch` that aborts after the screen's time-out. A caller's own abort signal still works and keeps
 * its own reason.
 */
export function createFetchWithTimeout(
  baseFetch: typeof fetch = (...args) => fetch(...args),
  timeoutMs: () => number = requestTimeoutMs,
): typeof fetch {
  return async (input, init) => {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new RequestTimeoutError()), timeoutMs());
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal;
    try {
      return await baseFetch(input, { ...init, signal });
    } catch (error) {
      if (timeout.signal.aborted) throw new RequestTimeoutError();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}
