import {
  formatCryptoAmount,
  formatDate,
  formatDateTime,
  formatStatus,
  formatTime,
  formatPercent,
  formatThousands,
  formatUsd,
  formatUsdWhole,
  isPriceRise,
} from './format';

describe('formatUsd (prices and balances)', () => {
  it('shows dollars with exactly two decimals and thousands separators', () => {
    expect(formatUsd(30000, 'en-US')).toBe('$30,000.00');
    expect(formatUsd(0.5, 'en-US')).toBe('$0.50');
  });

  it('rounds to the nearest cent', () => {
    expect(formatUsd(2000.126, 'en-US')).toBe('$2,000.13');
    expect(formatUsd(0.071234, 'en-US')).toBe('$0.07');
  });

  it("follows the visitor's locale for separators", () => {
    expect(formatUsd(1234.5, 'de-DE')).toBe('1.234,50\u00a0$');
  });
});

describe('formatThousands (market caps and limits)', () => {
  it('groups thousands with the locale separator', () => {
    expect(formatThousands(1234567890, 'en-US')).toBe('1,234,567,890');
    expect(formatThousands(10000, 'en-US')).toBe('10,000');
    expect(formatThousands(1234567, 'de-DE')).toBe('1.234.567');
  });

  it('keeps up to two decimals and drops trailing zeros', () => {
    expect(formatThousands(10.5, 'en-US')).toBe('10.5');
    expect(formatThousands(10.129, 'en-US')).toBe('10.13');
    expect(formatThousands(10.0, 'en-US')).toBe('10');
  });
});

describe('formatUsdWhole (market caps)', () => {
  it('shows whole dollars with the locale thousands separators', () => {
    expect(formatUsdWhole(1897750931748.4, 'en-US')).toBe('$1,897,750,931,748');
    expect(formatUsdWhole(240000000000, 'de-DE')).toBe('240.000.000.000\u00a0$');
  });
});

describe('formatPercent (24h change)', () => {
  it('shows two decimals and a percent sign', () => {
    expect(formatPercent(1.5)).toBe('1.50%');
    expect(formatPercent(0)).toBe('0.00%');
    expect(formatPercent(12.345678)).toBe('12.35%');
  });

  it('keeps the minus sign of a fall', () => {
    expect(formatPercent(-2.1)).toBe('-2.10%');
  });

  it('shows a fall too small to show as 0.00%, without a minus sign', () => {
    expect(formatPercent(-0.001)).toBe('0.00%');
    expect(formatPercent(-0.004999)).toBe('0.00%');
  });
});

describe('formatCryptoAmount (converter and buy estimate)', () => {
  it('shows eight decimals', () => {
    expect(formatCryptoAmount(100 / 30000)).toBe('0.00333333');
    expect(formatCryptoAmount(2)).toBe('2.00000000');
  });
});

describe('isPriceRise', () => {
  it('counts zero and positive changes as a rise and negative ones as a fall', () => {
    expect(isPriceRise(0)).toBe(true);
    expect(isPriceRise(3.2)).toBe(true);
    expect(isPriceRise(-0.01)).toBe(false);
  });

  it('counts a fall that shows as 0.00% as no fall, so colour and arrow match the number', () => {
    expect(isPriceRise(-0.001)).toBe(true);
  });
});

describe('dates and times (one format, with the time zone)', () => {
  const moment = '2026-11-24T05:20:00Z';

  it('writes the date, and the time named with its zone', () => {
    expect(formatDate(moment, 'en-US', 'UTC')).toBe('Nov 24, 2026');
    expect(formatTime(moment, 'en-US', 'UTC')).toBe('05:20 AM UTC');
    expect(formatDateTime(moment, 'en-US', 'UTC')).toBe('Nov 24, 2026, 05:20 AM UTC');
  });

  it("shows the viewer's own zone", () => {
    expect(formatTime(moment, 'en-GB', 'Europe/Berlin')).toBe('06:20 CET');
  });
});

describe('formatStatus (one case for every status)', () => {
  it.each([
    ['pending', 'Pending'],
    ['Pending', 'Pending'],
    ['COMPLETE', 'Complete'],
    ['on hold', 'On hold'],
  ])('%s reads %s', (stored, shown) => {
    expect(formatStatus(stored)).toBe(shown);
  });
});
