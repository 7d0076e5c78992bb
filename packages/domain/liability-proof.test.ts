import { describe, expect, it } from 'vitest';
import { leafHash, nodeHash, verifyLiabilityProof, type LiabilityProof } from './liability-proof.ts';

/**
 * A three-person tree built by hand with the documented hashes (docs/architecture.md, "Proof of
 * liabilities"): Ada's proof verifies, and each way of cheating her is caught. The database's own trees are
 * checked against this code in tests/db/ledger.test.ts.
 */
const salt = (digit: string) => digit.repeat(64);
const ada = '00000000-0000-4000-8000-0000000000a1';
const bea = '00000000-0000-4000-8000-0000000000b1';
const cy = '00000000-0000-4000-8000-0000000000c1';

async function adasProof(): Promise<LiabilityProof> {
  const adaLeaf = await leafHash(7, ada, salt('a'), ['100.5', '0.25']);
  const beaLeaf = await leafHash(7, bea, salt('b'), ['20', '0']);
  const cyLeaf = await leafHash(7, cy, salt('c'), ['0.01', '1.000000000000000001']);
  const pair = await nodeHash(adaLeaf, beaLeaf, ['120.5', '0.25']);
  // Cy is a lone last node: carried up a level unchanged.
  const root = await nodeHash(pair, cyLeaf, ['120.51', '1.250000000000000001']);
  return {
    version: 'coinvault-liability-proof-v1',
    checkpoint: {
      id: 7,
      created_at: '2026-11-27T00:00:00Z',
      head_seq: 42,
      head_hash: salt('e'),
      currencies: ['USD', 'bitcoin'],
      totals: ['120.51', '1.250000000000000001'],
      people: 3,
      root,
    },
    leaf: { person: ada, salt: salt('a'), balances: ['100.5', '0.25'], position: 0 },
    path: [
      { side: 'right', hash: beaLeaf, sums: ['20', '0'] },
      { side: 'right', hash: cyLeaf, sums: ['0.01', '1.000000000000000001'] },
    ],
  };
}

describe('verifyLiabilityProof', () => {
  it('accepts an honest proof against the published root and the balances the person knows', async () => {
    const proof = await adasProof();
    const verdict = await verifyLiabilityProof(proof, {
      publishedRoot: proof.checkpoint.root,
      balances: { USD: '100.50', bitcoin: '0.25' },
    });
    expect(verdict.checks.filter((check) => !check.passed)).toEqual([]);
    expect(verdict.valid).toBe(true);
  });

  it('refuses a proof whose balances were changed: the path no longer reaches the root', async () => {
    const proof = await adasProof();
    const verdict = await verifyLiabilityProof({
      ...proof,
      leaf: { ...proof.leaf, balances: ['1000.5', '0.25'] },
    });
    expect(verdict.valid).toBe(false);
    expect(verdict.checks).toContainEqual(
      expect.objectContaining({ name: 'Your leaf and its path lead to the checkpoint root', passed: false }),
    );
  });

  it('refuses a sibling with a negative sum, which could hide the person in the total', async () => {
    const proof = await adasProof();
    const [first, second] = proof.path;
    const verdict = await verifyLiabilityProof({
      ...proof,
      path: [{ ...first, sums: ['-100.5', '0'] }, second],
    });
    expect(verdict.checks).toContainEqual(
      expect.objectContaining({ name: 'No balance or sum in the path is negative', passed: false }),
    );
  });

  it('refuses a root other than the one published', async () => {
    const verdict = await verifyLiabilityProof(await adasProof(), { publishedRoot: salt('0') });
    expect(verdict.valid).toBe(false);
    expect(verdict.checks.at(-1)).toMatchObject({
      name: 'The checkpoint root is the one published',
      passed: false,
    });
  });

  it('says when the balances in the leaf are not the ones the person knows', async () => {
    const verdict = await verifyLiabilityProof(await adasProof(), {
      balances: { USD: '100.5', ethereum: '2' },
    });
    expect(verdict.checks.at(-1)).toEqual({
      name: 'The balances in your leaf are the ones you know',
      passed: false,
      detail: 'bitcoin: proof 0.25, yours 0; ethereum: not in the proof',
    });
  });

  it('says what is wrong with a file that is not a proof', async () => {
    const verdict = await verifyLiabilityProof({ version: 'something else' });
    expect(verdict.valid).toBe(false);
    expect(verdict.checks[0]?.name).toBe('The file is a CoinVault proof');
  });
});
