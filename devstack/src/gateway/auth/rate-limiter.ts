export interface RateLimit {
  /** Requests refilled per window, per key (a client address, or one key for all e-mails). */
  limit: number;
  windowMs: number;
  /** Requests allowed at once before the refill rate applies; GoTrue uses 30 for most buckets. */
  burst?: number;
}

/**
 * A token bucket per key, as GoTrue's limiters (tollbooth: `limit / window` per second with a burst):
 * api/options.go `NewLimiterOptions`. Idle keys are dropped after an hour, GoTrue's expiry.
 */
export function createRateLimiter({ limit, windowMs, burst = limit }: RateLimit) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refillPerMs = limit / windowMs;
  const idleMs = 60 * 60_000;

  /** Takes one request for `key`; false when its bucket is empty. */
  return function allow(key: string): boolean {
    const now = Date.now();
    const bucket = buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * refillPerMs);
    bucket.at = now;
    buckets.set(key, bucket);
    if (buckets.size > 10_000) {
      for (const [other, { at }] of buckets) if (now - at > idleMs) buckets.delete(other);
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  };
}
