import type { ProjectConfig } from '../project-config';

export interface RateLimit {
  /** Requests refilled per window, per key (a client address, or one key for all e-mails). */
  limit: number;
  windowMs: number;
  /** Requests allowed at once before the refill rate applies; GoTrue uses 30 for most buckets. */
  burst?: number;
}

/** GoTrue's rate-limit buckets (api/options.go); the first three count per client address. */
export interface AuthRateLimits {
  /** `sign_in_sign_ups` (GoTrue's OTP rate): sign-ups, recovery requests and user updates, each apart. */
  signInSignUps: RateLimit;
  /** `token_refresh`: every `/token` grant (password, refresh token, PKCE code). */
  tokenRefresh: RateLimit;
  /** `token_verifications`: `/verify`, the mailed links and OTP checks. */
  verify: RateLimit;
  /** `email_sent`: e-mails per hour for the whole project, whoever asks. */
  emailSent: RateLimit;
}

/** The buckets of `[auth.rate_limit]`, with `overrides` (tests) taking precedence. */
export function authRateLimits(
  project: Pick<
    ProjectConfig,
    | 'signInSignUpsPer5Minutes'
    | 'tokenRefreshPer5Minutes'
    | 'tokenVerificationsPer5Minutes'
    | 'emailSentPerHour'
  >,
  overrides: Partial<AuthRateLimits>,
): AuthRateLimits {
  const fiveMinutes = 5 * 60_000;
  return {
    signInSignUps: { limit: project.signInSignUpsPer5Minutes, windowMs: fiveMinutes, burst: 30 },
    tokenRefresh: { limit: project.tokenRefreshPer5Minutes, windowMs: fiveMinutes, burst: 30 },
    verify: { limit: project.tokenVerificationsPer5Minutes, windowMs: fiveMinutes, burst: 30 },
    emailSent: { limit: project.emailSentPerHour, windowMs: 60 * 60_000 },
    ...overrides,
  };
}

/**
 * A token bucket per key, as GoTrue's limiters (tollbooth: `limit / window` per second with a burst):
 * api/options.go `NewLimiterOptions`. Idle keys are dropped after an hour, GoTrue's expiry.
 */
export function createRateLimiter({ limit, windowMs, burst = limit }: RateLimit, now = () => Date.now()) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refillPerMs = limit / windowMs;
  const idleMs = 60 * 60_000;

  /** Takes one request for `key`; false when its bucket is empty. */
  return function allow(key: string): boolean {
    const at = now();
    const bucket = buckets.get(key) ?? { tokens: burst, at };
    bucket.tokens = Math.min(burst, bucket.tokens + (at - bucket.at) * refillPerMs);
    bucket.at = at;
    buckets.set(key, bucket);
    if (buckets.size > 10_000) {
      for (const [other, idle] of buckets) if (at - idle.at > idleMs) buckets.delete(other);
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  };
}
