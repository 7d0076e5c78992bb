import { describe, expect, it } from 'vitest';
import { formatUsd, formatUsdPlain } from './money.ts';

describe('formatUsd: US dollars in the person’s locale', () => {
  it('shows balances and prices with exactly two decimals and thousands separators', () => {
    expect(formatUsd(30000, { locale: 'en-US' })).toBe('$30,000.00');
    expect(formatUsd(0.5, { locale: 'en-US' })).toBe('$0.50');
  });

  it('rounds to the nearest cent', () => {
    expect(formatUsd(2000.126, { locale: 'en-US' })).toBe('$2,000.13');
    expect(formatUsd(0.071234, { locale: 'en-US' })).toBe('$0.07');
  });

  it('follows the person’s locale for separators and the sign’s place', () => {
    expect(formatUsd(1234.5, { locale: 'de-DE' })).toBe('1.234,50\u00a0$');
  });

  it('writes money in one format on a screen: the sign is $ in every locale, as the database’s messages write it', () => {
    expect(formatUsd(20000, { locale: 'en-GB' })).toBe('$20,000.00');
    expect(formatUsd(20000, { locale: 'en-CA' })).toBe('$20,000.00');
    expect(formatUsd(20000, { locale: 'en-AU', precision: 'bound' })).toBe('$20,000');
    expect(formatUsd(20000, { locale: 'en-GB' })).not.toContain('US$');
  });

  it('shows market caps in whole dollars', () => {
    expect(formatUsd(1897750931748.4, { locale: 'en-US', precision: 'whole' })).toBe('$1,897,750,931,748');
    expect(formatUsd(240000000000, { locale: 'de-DE', precision: 'whole' })).toBe('240.000.000.000\u00a0$');
  });

  it('shortens a chart’s axis in the person’s locale, not always in English', () => {
    expect(formatUsd(1500, { locale: 'en-US', precision: 'compact' })).toBe('$1.50K');
    expect(formatUsd(2_500_000, { locale: 'de-DE', precision: 'compact' })).toBe('2,50\u00a0Mio.\u00a0$');
  });

  it('writes a limit as the database’s refusals do: at most the cents, no trailing zeros', () => {
    expect(formatUsd(10, { locale: 'en-US', precision: 'bound' })).toBe('$10');
    expect(formatUsd(1000.5, { locale: 'en-US', precision: 'bound' })).toBe('$1,000.5');
    expect(formatUsd(10.129, { locale: 'en-US', precision: 'bound' })).toBe('$10.13');
  });
});

describe('formatUsdPlain: CSV’s plain number', () => {
  it('has no sign and no separators, a point and always the cents', () => {
    expect(formatUsdPlain(1234.5)).toBe('1234.50');
    expect(formatUsdPlain(1_000_000)).toBe('1000000.00');
    expect(formatUsdPlain(0.071)).toBe('0.07');
  });
});
