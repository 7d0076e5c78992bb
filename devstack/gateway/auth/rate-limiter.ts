export interface RateLimit {
  /** Requests allowed per window and key (IP address, e-mail). */
  limit: number;
  windowMs: number;
}

/** Fixed-window counters, as GoTrue's per-IP limits; keys expire with their window. */
export function createRateLimiter({ limit, windowMs }: RateLimit) {
  const windows = new Map<string, { startedAt: number; count: number }>();

  /** Counts one request for every key; false when any key is over its limit. */
  return function allow(keys: string[]): boolean {
    const now = Date.now();
    let allowed = true;
    for (const key of keys) {
      let window = windows.get(key);
      if (!window || now - window.startedAt >= windowMs) {
        window = { startedAt: now, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count > limit) allowed = false;
    }
    if (windows.size > 10_000) {
      for (const [key, window] of windows) if (now - window.startedAt >= windowMs) windows.delete(key);
    }
    return allowed;
  };
}
