/**
 * Runs the benchmarks: every `bench/*.bench.ts`, or only those named (`npm run bench -- rls-transactions`).
 * Each runs in its own process, prints its own table and sets a non-zero exit code when it misses its
 * budget; this runner lists the outcomes and fails when any bench did.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const benchDir = new URL('./', import.meta.url);
const tsx = new URL('../node_modules/.bin/tsx', import.meta.url).pathname;
const suffix = '.bench.ts';

const available = readdirSync(benchDir)
  .filter((file) => file.endsWith(suffix))
  .map((file) => file.slice(0, -suffix.length))
  .sort();
const wanted = process.argv.slice(2).map((name) => name.replace(/^bench\//, '').replace(suffix, ''));
const unknown = wanted.filter((name) => !available.includes(name));

if (unknown.length > 0) {
  console.error(`Unknown bench: ${unknown.join(', ')}. Available: ${available.join(', ')}`);
  process.exit(2);
}

const selected = wanted.length > 0 ? wanted : available;
const outcomes: Record<string, string> = {};
for (const name of selected) {
  console.log(`\n▶ ${name}`);
  const { status, signal } = spawnSync(tsx, [new URL(`${name}${suffix}`, benchDir).pathname], {
    stdio: 'inherit',
  });
  outcomes[name] = status === 0 ? 'within budget' : `FAILED (${signal ?? `exit ${status}`})`;
}

console.log('\nBenchmarks');
console.table(outcomes);
if (Object.values(outcomes).some((outcome) => outcome !== 'within budget')) process.exitCode = 1;
