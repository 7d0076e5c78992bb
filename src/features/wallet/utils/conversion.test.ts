import { formatCryptoAmount } from '@/lib/format';
import {
  convert,
  converterCurrencies,
  formatConverterValue,
  usdPerUnit,
  type ConverterCurrency,
} from './conversion';

const bitcoinPrice = 30000;
const ethereumPrice = 2000;

describe('the converter: the currency changes what the value is shown in, never the coin quantity', () => {
  it.each<[ConverterCurrency, number]>([
    ['USD', 30000],
    ['EUR', 30000 / 1.1],
    ['GBP', 24000],
    ['JPY', 30000 / 0.0067],
    ['AUD', 30000 / 0.65],
    ['CAD', 30000 / 0.74],
  ])('1 BTC gives 15 ETH with %s selected, worth %s in that currency', (currency, value) => {
    const outcome = convert({ amount: 1, currency, fromPrice: bitcoinPrice, toPrice: ethereumPrice });
    expect(formatCryptoAmount(outcome.quantity)).toBe('15.00000000');
    expect(outcome.value).toBeCloseTo(value, 6);
  });

  it('writes the value in the chosen currency', () => {
    expect(formatConverterValue(30000 / 1.1, 'EUR', 'en-US')).toBe('€27,272.73');
    expect(formatConverterValue(24000, 'GBP', 'en-US')).toBe('£24,000.00');
    expect(formatConverterValue(30000 / 0.0067, 'JPY', 'en-US')).toBe('¥4,477,612');
  });

  it('uses the fixed rates of the specification', () => {
    expect(usdPerUnit).toEqual({ USD: 1, EUR: 1.1, GBP: 1.25, JPY: 0.0067, AUD: 0.65, CAD: 0.74 });
    expect(converterCurrencies).toEqual(['USD', 'EUR', 'GBP', 'JPY', 'AUD', 'CAD']);
  });

  it('rounds the quantity to the nearest eighth decimal', () => {
    const quantity = (amount: number) =>
      convert({ amount, currency: 'USD', fromPrice: 1, toPrice: 3 }).quantity;
    expect(formatCryptoAmount(quantity(1))).toBe('0.33333333');
    expect(formatCryptoAmount(quantity(2))).toBe('0.66666667');
  });

  it('converts a coin to itself as the same quantity, whatever the currency', () => {
    for (const currency of converterCurrencies) {
      expect(convert({ amount: 10, currency, fromPrice: 123.45, toPrice: 123.45 }).quantity).toBeCloseTo(
        10,
        10,
      );
    }
  });
});
