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

  it('is the quantity typed, or the USD value typed converted at the price shown', () => {
    expect(quantityToSell('quantity', '0.01', coin)).toEqual({ quantity: '0.01' });
    expect(quantityToSell('usd', '100', coin)).toEqual({ quantity: '0.002' });
  });

  it('is refused beyond what may still be sold, naming it', () => {
    expect(quantityToSell('quantity', '0.0124', coin)).toEqual({
      error: 'You can sell at most 0.01234567 BTC',
    });
    expect(quantityToSell('usd', '1000', coin)).toEqual({ error: 'You can sell at most 0.01234567 BTC' });
  });

  it('is refused when empty, not positive, too precise or without a price', () => {
    expect(quantityToSell('quantity', '', coin)).toEqual({ error: 'Quantity must be greater than 0' });
    expect(quantityToSell('usd', '-5', coin)).toEqual({ error: 'Value must be greater than 0' });
    expect(quantityToSell('quantity', '0.000000001', coin)).toEqual({
      error: 'Quantity can have at most 8 decimal places',
    });
    expect(quantityToSell('usd', '10', { ...coin, price: undefined })).toEqual({
      error: 'No current price for Bitcoin',
    });
  });
});
