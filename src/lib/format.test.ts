import {
  formatCryptoAmount,
  formatDate,
  formatDateTime,
  formatStatus,
  formatTime,
  formatPercent,
  isPriceRise,
} from './format';

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
