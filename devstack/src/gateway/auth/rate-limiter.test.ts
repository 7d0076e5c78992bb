import { describe, expect, it } from 'vitest';
import { authRateLimits, createRateLimiter } from './rate-limiter';

describe('GoTrue’s token buckets', () => {
  it('allows a burst, then refills at limit per window, per key', () => {
    let now = 0;
    const allow = createRateLimiter({ limit: 60, windowMs: 60_000, burst: 2 }, () => now);
    expect([allow('a'), allow('a'), allow('a')]).toEqual([true, true, false]);
    expect(allow('b')).toBe(true);
    now += 1000;
    expect([allow('a'), allow('a')]).toEqual([true, false]);
  });

  it('takes config.toml’s figures unless a test overrides a bucket', () => {
    const limits = authRateLimits(
      {
        signInSignUpsPer5Minutes: 30,
        tokenRefreshPer5Minutes: 150,
        tokenVerificationsPer5Minutes: 30,
        emailSentPerHour: 2,
      },
      { emailSent: { limit: 100, windowMs: 1000 } },
    );
    expect(limits.tokenRefresh).toEqual({ limit: 150, windowMs: 300_000, burst: 30 });
    expect(limits.emailSent).toEqual({ limit: 100, windowMs: 1000 });
  });
});
