import { describe, expect, it } from 'vitest';
import { canonicalTime, findChainBreaks, GENESIS_HASH, hexOfBytea, sha256Hex } from './hash-chain.ts';

/** The shared chain rules; the database's chains are checked against them in tests/db/security-log.test.ts. */
describe('canonicalTime', () => {
  it.each([
    ['2026-11-26 20:40:01.123456+00', '2026-11-26T20:40:01.123456Z'],
    ['2026-11-26T20:40:01.1+00:00', '2026-11-26T20:40:01.100000Z'],
    ['2026-11-26T21:40:01+01:00', '2026-11-26T20:40:01.000000Z'],
    ['2026-11-26 15:10:01.000009-0530', '2026-11-26T20:40:01.000009Z'],
    ['2026-11-26T20:40:01.5Z', '2026-11-26T20:40:01.500000Z'],
  ])('writes %s as %s, microseconds kept', (written, canonical) => {
    expect(canonicalTime(written)).toBe(canonical);
  });

  it('refuses a time without a zone', () => {
    expect(() => canonicalTime('2026-11-26 20:40:01')).toThrow('is not a timestamp with a time zone');
  });
});

describe('findChainBreaks', () => {
  async function chainOf(texts: string[]) {
    let prevHash = GENESIS_HASH;
    const links = [];
    for (const [index, canonical] of texts.entries()) {
      const hash = await sha256Hex(canonical);
      links.push({ seq: index + 1, prevHash, hash, canonical });
      prevHash = hash;
    }
    return links;
  }

  it('finds nothing wrong in an intact chain', async () => {
    expect(await findChainBreaks(await chainOf(['a', 'b', 'c']))).toEqual([]);
  });

  it('names each kind of break at the entry where it shows', async () => {
    const [first, second, third] = await chainOf(['a', 'b', 'c']);
    if (!first || !second || !third) throw new Error('three links');
    expect(await findChainBreaks([{ ...first, canonical: 'A' }, second, third])).toEqual([
      { seq: 1, problem: 'hash differs from contents' },
    ]);
    expect(await findChainBreaks([first, third])).toEqual([{ seq: 3, problem: 'entries missing' }]);
    expect(await findChainBreaks([first, { ...second, prevHash: GENESIS_HASH }, third])).toEqual([
      { seq: 2, problem: 'previous hash differs' },
    ]);
  });

  it('reads a bytea as PostgREST writes it', () => {
    expect(hexOfBytea('\\xAB01')).toBe('ab01');
  });
});
