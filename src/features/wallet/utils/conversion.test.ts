import { formatCryptoAmount } from '@/lib/format';
import { convert, converterCurrencies, usdPerUnit, type ConverterCurrency } from './conversion';

const bitcoinPrice = 30000;
const ethereumPrice = 2000;

describe('the converter formula: amount in USD × from-price ÷ to-price, with 8 decimals', () => {
  it.each<[ConverterCurrency, string]>([
    ['USD', '15.00000000'],
    ['EUR', '16.50000000'],
    ['GBP', '18.75000000'],
    ['JPY', '0.10050000'],
    ['AUD', '9.75000000'],
    ['CAD', '11.10000000'],
  ])('1 %s from bitcoin to ethereum gives %s', (currency, expected) => {
    const result = convert({ amount: 1, currency, fromPrice: bitcoinPrice, toPrice: ethereumPrice });
    expect(formatCryptoAmount(result)).toBe(expected);
  });

  it('uses the fixed rates of the specification', () => {
    expect(usdPerUnit).toEqual({ USD: 1, EUR: 1.1, GBP: 1.25, JPY: 0.0067, AUD: 0.65, CAD: 0.74 });
    expect(converterCurrencies).toEqual(['USD', 'EUR', 'GBP', 'JPY', 'AUD', 'CAD']);
  });

  it('rounds to the nearest eighth decimal', () => {
    expect(formatCryptoAmount(convert({ amount: 1, currency: 'USD', fromPrice: 1, toPrice: 3 }))).toBe(
      '0.33333333',
    );
    expect(formatCryptoAmount(convert({ amount: 2, currency: 'USD', fromPrice: 1, toPrice: 3 }))).toBe(
      '0.66666667',
    );
  });

  it('is not thrown off by binary fractions of the rates', () => {
    // 0.1 EUR is 0.11000000000000001 USD in floating point; the shown result must still be exact.
    expect(formatCryptoAmount(convert({ amount: 0.1, currency: 'EUR', fromPrice: 1, toPrice: 1 }))).toBe(
      '0.11000000',
    );
    expect(
      formatCryptoAmount(convert({ amount: 1000, currency: 'JPY', fromPrice: 2000, toPrice: 30000 })),
    ).toBe('0.44666667');
  });

  it('converts a coin to itself at the currency rate alone', () => {
    for (const currency of converterCurrencies) {
      expect(convert({ amount: 10, currency, fromPrice: 123.45, toPrice: 123.45 })).toBeCloseTo(
        10 * usdPerUnit[currency],
        10,
      );
    }
  });
});
