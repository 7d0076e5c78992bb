import { describe, expect, it } from 'vitest';
import { hasSellQuantityPlaces, quantityForUsd, quantityToSell, truncateQuantity } from './sell-quantity';

describe('sell quantities', () => {
  it('cut the database’s 18 places to 8 without rounding up', () => {
    expect(truncateQuantity('0.123456789999999999')).toBe('0.12345678');
    expect(truncateQuantity('2.000000000000000000')).toBe('2');
    expect(truncateQuantity('0.000000001')).toBe('0');
  });

  it('convert a USD value at the price shown, never to more coins than it buys', () => {
    expect(quantityForUsd(100, 3)).toBe('33.33333333');
    expect(quantityForUsd(50, 50_000)).toBe('0.001');
    expect(quantityForUsd(50, undefined)).toBeUndefined();
    expect(quantityForUsd(0, 10)).toBeUndefined();
  });

  it('allow at most 8 decimal places', () => {
    expect(hasSellQuantityPlaces('0.12345678')).toBe(true);
    expect(hasSellQuantityPlaces('0.123456789')).toBe(false);
  });
});

describe('what the Sell form sends', () => {
  const coin = {
    cryptocurrency: 'bitcoin',
    name: 'Bitcoin',
    symbol: 'btc',
    price: 50_000,
    available: '0.012345678912',
  };
  const limits = { minAmount: 10, maxAmount: 10_000 };

  it('is the quantity typed, or the USD value typed converted at the price shown', () => {
    expect(quantityToSell('quantity', '0.01', coin, limits)).toEqual({ quantity: '0.01' });
    expect(quantityToSell('usd', '100', coin, limits)).toEqual({ quantity: '0.002' });
  });

  it('is refused beyond what may still be sold, naming it', () => {
    expect(quantityToSell('quantity', '0.0124', coin, limits)).toEqual({
      error: 'You can sell at most 0.01234567 BTC',
    });
    expect(quantityToSell('usd', '1000', coin, limits)).toEqual({
      error: 'You can sell at most 0.01234567 BTC',
    });
  });

  it('refuses a 3.37 USD sale under the 10 USD minimum, typed as a quantity or a value, in the database’s words', () => {
    expect(quantityToSell('quantity', '0.0000674', coin, limits)).toEqual({
      error: 'Minimum transaction amount is $10',
    });
    expect(quantityToSell('usd', '3.37', coin, limits)).toEqual({
      error: 'Minimum transaction amount is $10',
    });
    expect(quantityToSell('usd', '10', coin, limits)).toEqual({ quantity: '0.0002' });
    expect(quantityToSell('usd', '3.37', coin, { minAmount: 0, maxAmount: 0 })).toEqual({
      quantity: '0.0000674',
    });
  });

  it('refuses a sale worth more than the maximum', () => {
    expect(quantityToSell('usd', '600', coin, { minAmount: 10, maxAmount: 500 })).toEqual({
      error: 'Maximum transaction amount is $500',
    });
  });

  it('refuses a USD value with 3 decimals', () => {
    expect(quantityToSell('usd', '10.555', coin, limits)).toEqual({
      error: 'Value can have at most 2 decimal places',
    });
  });

  it('is refused when empty, not positive, too precise or without a price', () => {
    expect(quantityToSell('quantity', '', coin, limits)).toEqual({
      error: 'Quantity must be greater than 0',
    });
    expect(quantityToSell('usd', '-5', coin, limits)).toEqual({ error: 'Value must be greater than 0' });
    expect(quantityToSell('quantity', '0.000000001', coin, limits)).toEqual({
      error: 'Quantity can have at most 8 decimal places',
    });
    expect(quantityToSell('usd', '10', { ...coin, price: undefined }, limits)).toEqual({
      error: 'No current price for Bitcoin',
    });
  });
});
