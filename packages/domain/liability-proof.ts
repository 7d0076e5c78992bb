import { z } from 'zod';
import { sha256Hex } from './hash-chain.ts';

/**
 * A person's proof of inclusion in a checkpoint's Merkle sum tree (docs/architecture.md, "Proof of
 * liabilities"), checked with Web Crypto alone, so the browser checks it without sending anything and
 * `npm run ledger:verify` checks the same file offline. What a valid proof shows: the total the custodian
 * published for that checkpoint includes the person's balances, as stated in their leaf. It says nothing of
 * the reserves that cover the total.
 */
const hex32 = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 hash in lowercase hex');
const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal number');

export const liabilityProofSchema = z.object({
  version: z.literal('coinvault-liability-proof-v1'),
  checkpoint: z.object({
    id: z.number().int().positive(),
    created_at: z.string(),
    head_seq: z.number().int().nonnegative(),
    head_hash: hex32,
    currencies: z.array(z.string()),
    totals: z.array(decimal),
    people: z.number().int().positive(),
    root: hex32,
  }),
  leaf: z.object({
    person: z.uuid(),
    salt: hex32,
    balances: z.array(decimal),
    position: z.number().int().nonnegative(),
  }),
  path: z.array(z.object({ side: z.enum(['left', 'right']), hash: hex32, sums: z.array(decimal) })),
});
export type LiabilityProof = z.infer<typeof liabilityProofSchema>;

/** Exact decimals: amounts carry at most 18 decimal places (coins), so they are integers of 10^-18. */
const scale = 18;
const unit = 10n ** BigInt(scale);

function toUnits(value: string): bigint {
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? value.slice(1) : value).split('.');
  if (fraction.length > scale) throw new Error(`${value} has more than ${scale} decimal places`);
  const units = BigInt(whole) * unit + BigInt(fraction.padEnd(scale, '0'));
  return negative ? -units : units;
}

/** The canonical text of an amount: PostgreSQL's trim_scale(amount)::text. */
function fromUnits(units: bigint): string {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const fraction = (magnitude % unit).toString().padStart(scale, '0').replace(/0+$/, '');
  const text = `${magnitude / unit}${fraction ? `.${fraction}` : ''}`;
  return negative ? `-${text}` : text;
}

const canonicalAmount = (value: string) => fromUnits(toUnits(value));

export function leafHash(checkpointId: number, person: string, salt: string, balances: string[]) {
  return sha256Hex(
    JSON.stringify([
      'coinvault-liability-leaf-v1',
      checkpointId,
      person,
      salt,
      balances.map(canonicalAmount),
    ]),
  );
}

export function nodeHash(left: string, right: string, sums: string[]) {
  return sha256Hex(JSON.stringify(['coinvault-liability-node-v1', left, right, sums.map(canonicalAmount)]));
}

export interface ProofCheck {
  /** What was checked, in words a person reads. */
  name: string;
  passed: boolean;
  detail: string;
}

export interface ProofVerdict {
  valid: boolean;
  checks: ProofCheck[];
  /** The proof, when it had the right shape. */
  proof?: LiabilityProof;
}

export interface ProofExpectations {
  /** The root published for the checkpoint (the public page or endpoint), fetched apart from the proof. */
  publishedRoot?: string;
  /** The balances the person knows they have, per currency (their wallet or statement). */
  balances?: Record<string, string>;
}

export async function verifyLiabilityProof(
  input: unknown,
  expected: ProofExpectations = {},
): Promise<ProofVerdict> {
  const parsed = liabilityProofSchema.safeParse(input);
  if (!parsed.success) {
    return {
      valid: false,
      checks: [
        { name: 'The file is a CoinVault proof', passed: false, detail: z.prettifyError(parsed.error) },
      ],
    };
  }
  const proof = parsed.data;
  const { checkpoint, leaf } = proof;
  const width = checkpoint.currencies.length;
  const checks: ProofCheck[] = [];
  const check = (name: string, passed: boolean, detail: string) => checks.push({ name, passed, detail });

  const shaped = leaf.balances.length === width && proof.path.every((step) => step.sums.length === width);
  check(
    'Every amount names one currency of the checkpoint',
    shaped,
    `${width} currencies: ${checkpoint.currencies.join(', ')}`,
  );
  if (!shaped) return { valid: false, checks, proof };

  let hash = await leafHash(checkpoint.id, leaf.person, leaf.salt, leaf.balances);
  let sums = leaf.balances.map(toUnits);
  const negative = [...leaf.balances, ...proof.path.flatMap((step) => step.sums)].filter(
    (sum) => toUnits(sum) < 0n,
  );
  check(
    'No balance or sum in the path is negative',
    negative.length === 0,
    negative.length === 0 ? 'a negative amount could hide a balance' : `negative: ${negative.join(', ')}`,
  );
  for (const step of proof.path) {
    sums = sums.map((sum, index) => sum + toUnits(step.sums[index] ?? '0'));
    const total = sums.map(fromUnits);
    hash =
      step.side === 'left' ? await nodeHash(step.hash, hash, total) : await nodeHash(hash, step.hash, total);
  }
  check(
    'Your leaf and its path lead to the checkpoint root',
    hash === checkpoint.root,
    `computed ${hash}, checkpoint ${checkpoint.root}`,
  );
  const totals = sums.map(fromUnits);
  const totalsMatch = totals.every(
    (total, index) => total === canonicalAmount(checkpoint.totals[index] ?? ''),
  );
  check(
    'The sums at the root are the published totals',
    totalsMatch,
    checkpoint.currencies.map((currency, index) => `${currency} ${totals[index]}`).join(', '),
  );
  if (expected.publishedRoot !== undefined) {
    check(
      'The checkpoint root is the one published',
      expected.publishedRoot === checkpoint.root,
      `published ${expected.publishedRoot}`,
    );
  }
  if (expected.balances !== undefined) {
    const known = expected.balances;
    const differing = checkpoint.currencies.flatMap((currency, index) => {
      const inLeaf = canonicalAmount(leaf.balances[index] ?? '0');
      const yours = canonicalAmount(known[currency] ?? '0');
      return inLeaf === yours ? [] : [`${currency}: proof ${inLeaf}, yours ${yours}`];
    });
    const unlisted = Object.keys(known).filter(
      (currency) => !checkpoint.currencies.includes(currency) && toUnits(known[currency] ?? '0') !== 0n,
    );
    check(
      'The balances in your leaf are the ones you know',
      differing.length === 0 && unlisted.length === 0,
      [...differing, ...unlisted.map((currency) => `${currency}: not in the proof`)].join('; ') ||
        'all equal',
    );
  }
  return { valid: checks.every((entry) => entry.passed), checks, proof };
}
