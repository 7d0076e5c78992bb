import { describe, expect, it } from 'vitest';
import {
  defaultRequestLifetime,
  expiryAfter,
  isExpired,
  isPastLimit,
  isPriceProtectionRefusal,
  limitPriceFor,
  requestLifetimes,
  shownStatus,
} from './price-protection.ts';

describe('request lifetimes', () => {
  it('are 24 hours unless the person picks 3 or 7 days, all within the 30 days the database accepts', () => {
    expect(defaultRequestLifetime.label).toBe('24 hours');
    expect(requestLifetimes.map(({ label }) => label)).toEqual(['24 hours', '3 days', '7 days']);
    expect(Math.max(...requestLifetimes.map(({ hours }) => hours))).toBeLessThan(30 * 24);
  });

  it('set the expiry that far from the moment of submitting', () => {
    const now = new Date('2026-11-24T15:00:00Z');
    expect(expiryAfter(defaultRequestLifetime, now)).toBe('2026-11-25T15:00:00.000Z');
    expect(expiryAfter(requestLifetimes[2], now)).toBe('2026-12-01T15:00:00.000Z');
  });
});

describe('limit prices', () => {
  it('let a buy fill at most the tolerance above the price seen, a sell at most the tolerance below', () => {
    expect(limitPriceFor('buy', 50_000, 2)).toBe(51_000);
    expect(limitPriceFor('sell', 50_000, 5)).toBe(47_500);
  });

  it('keep 8 decimal places for coins worth less than a cent', () => {
    expect(limitPriceFor('buy', 0.123456789, 1)).toBe(0.12469136);
    expect(limitPriceFor('sell', 0.00001234, 1)).toBe(0.00001222);
  });

  it('are left out when there is no price to start from', () => {
    expect(limitPriceFor('buy', undefined, 2)).toBeUndefined();
    expect(limitPriceFor('sell', 0, 2)).toBeUndefined();
    expect(limitPriceFor('buy', Number.NaN, 2)).toBeUndefined();
  });
});

describe('a price past the limit', () => {
  it('is above it for a buy and below it for a sell; the limit itself still fills', () => {
    expect(isPastLimit('buy', 51_000.01, 51_000)).toBe(true);
    expect(isPastLimit('buy', 51_000, 51_000)).toBe(false);
    expect(isPastLimit('sell', 47_499.99, 47_500)).toBe(true);
    expect(isPastLimit('sell', 47_500, 47_500)).toBe(false);
  });

  it('never happens without a limit', () => {
    expect(isPastLimit('buy', 1e12, null)).toBe(false);
    expect(isPastLimit('sell', 0.01, null)).toBe(false);
  });
});

describe('expired requests', () => {
  const now = new Date('2026-11-24T12:00:00Z');

  it('are pending requests at or past their expiry', () => {
    expect(isExpired('pending', '2026-11-24T12:00:00Z', now)).toBe(true);
    expect(isExpired('pending', '2026-11-24T12:00:01Z', now)).toBe(false);
    expect(shownStatus('pending', '2026-11-23T12:00:00Z', now)).toBe('expired');
  });

  it('never include decided requests, whose status stands', () => {
    expect(isExpired('approved', '2026-11-23T12:00:00Z', now)).toBe(false);
    expect(shownStatus('rejected', '2026-11-23T12:00:00Z', now)).toBe('rejected');
  });
});

describe('refusals by price protection', () => {
  it("are the database's texts naming the price and the limit, or the expiry", () => {
    expect(
      isPriceProtectionRefusal("The price of bitcoin is $51.5 now, above this request's limit of $51"),
    ).toBe(true);
    expect(
      isPriceProtectionRefusal("The price of ethereum is $40 now, below this request's limit of $40.01"),
    ).toBe(true);
    expect(
      isPriceProtectionRefusal('This request expired at 2026-11-24 12:00 UTC and cannot be approved'),
    ).toBe(true);
  });

  it('are not other refusals', () => {
    expect(isPriceProtectionRefusal('Insufficient balance')).toBe(false);
    expect(isPriceProtectionRefusal('permission denied for function approve_buy_request')).toBe(false);
  });
});
