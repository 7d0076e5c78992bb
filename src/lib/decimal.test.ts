import { centsToText, quantityTo8, toCents } from './decimal';

describe('the gains report’s exact decimals', () => {
  it('reads USD as whole cents and writes them back with 2 decimals', () => {
    expect(toCents('12.3')).toBe(1230n);
    expect(toCents('-0.05')).toBe(-5n);
    expect(toCents('7')).toBe(700n);
    expect(centsToText(-1230n)).toBe('-12.30');
    expect(centsToText(5n)).toBe('0.05');
    expect(centsToText(toCents('0.10') + toCents('0.20'))).toBe('0.30');
  });

  it('shows quantities to 8 places, rounding half up', () => {
    expect(quantityTo8('0.123456785')).toBe('0.12345679');
    expect(quantityTo8('0.123456784999')).toBe('0.12345678');
    expect(quantityTo8('1.5')).toBe('1.50000000');
    expect(quantityTo8('2')).toBe('2.00000000');
    expect(quantityTo8('0.999999995')).toBe('1.00000000');
  });
});
