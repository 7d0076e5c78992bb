import { describe, expect, it } from 'vitest';
import { coinName, coinNamesOf } from './coins.ts';

describe('coin names', () => {
  it("uses the loaded market list's name first", () => {
    const loaded = coinNamesOf([{ id: 'bitcoin', name: 'Bitcoin (live)' }]);
    expect(coinName('bitcoin', loaded)).toBe('Bitcoin (live)');
  });

  it("knows the provider's names for coins the loaded list lacks, never the raw id", () => {
    expect(coinName('binancecoin', new Map())).toBe('BNB');
    expect(coinName('usd-coin')).toBe('USDC');
  });

  it('writes an unknown id as words', () => {
    expect(coinName('some-new-coin')).toBe('Some new coin');
  });
});
