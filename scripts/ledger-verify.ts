/**
 * `npm run ledger:verify -- proof.json [--root <hex>] [--balance USD=5000 --balance bitcoin=0.1]`: checks a
 * person's inclusion proof offline, with the code the wallet's page runs in the browser
 * (packages/domain/liability-proof.ts). --root is the root published for the checkpoint, fetched apart from the
 * proof; --balance is what the person knows they had at the checkpoint. Exits 1 when any check fails.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { verifyLiabilityProof } from '../packages/domain/liability-proof';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { root: { type: 'string' }, balance: { type: 'string', multiple: true } },
});
const [file] = positionals;
if (!file) {
  console.error(
    'usage: npm run ledger:verify -- proof.json [--root <hex>] [--balance <currency>=<amount> ...]',
  );
  process.exit(2);
}
const balances = values.balance?.map((pair) => {
  const [currency = '', amount = ''] = pair.split('=');
  return [currency, amount] as const;
});

const verdict = await verifyLiabilityProof(JSON.parse(await readFile(file, 'utf8')), {
  publishedRoot: values.root,
  balances: balances ? Object.fromEntries(balances) : undefined,
});
for (const check of verdict.checks)
  console.log(`${check.passed ? 'PASS' : 'FAIL'} ${check.name}: ${check.detail}`);
console.log(
  verdict.valid
    ? 'The proof is valid: the total published for this checkpoint includes these balances.'
    : 'The proof is NOT valid.',
);
process.exitCode = verdict.valid ? 0 : 1;
