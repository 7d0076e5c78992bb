import { describe, expect, it } from 'vitest';
import { visibleIn } from './visibility';

describe('whether a snapshot sees a committed transaction', () => {
  it('sees one below xmax that is not running, and not one running or at or past xmax', () => {
    expect(visibleIn('790:795:791,793', [789, 790, 791, 792, 793, 794, 795, 796])).toEqual([
      true,
      true,
      false,
      true,
      false,
      true,
      false,
      false,
    ]);
  });

  it('reads 32-bit ids in the epoch of the snapshot, also across a wraparound', () => {
    const epoch = 1n << 32n;
    expect(visibleIn(`${epoch + 5n}:${epoch + 10n}:`, [2 ** 32 - 3, 7, 12])).toEqual([true, true, false]);
  });
});
