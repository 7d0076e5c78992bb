/**
 * The cost of row-level security on the busiest read: a person's transaction list (own rows, newest
 * first, 20 rows), with 100,000 transactions across 1,000 people. The same statement runs, interleaved
 * in the same run, as PostgREST runs it for a signed-in person (`authenticated`, JWT claims, RLS on)
 * and as `postgres` (RLS bypassed). Budget: median ratio RLS / no RLS <= 1.5 and RLS p95 <= 5 ms.
 *
 * Runs on its own throwaway Postgres: `npm run bench -- rls-transactions`.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { withBenchDatabase } from './support/database';
import { loadBenchData } from './support/bulk-load';
import { percentile } from './support/stats';
import { recordRun } from './support/results';

const PEOPLE = 1_000;
const TRANSACTIONS = 100_000;
const WARM_UP = 300;
const SAMPLES = 3_000;
const BUDGET_RATIO = 1.5;
const BUDGET_P95_MS = 5;

// The statement PostgREST builds for `.from('transactions').select('id,type,amount,status,cryptocurrency,date')
// .eq('user_id', uid).order('date', { ascending: false }).limit(20)`.
const listQuery = `
  with pgrst_source as (
    select transactions.id, transactions.type, transactions.amount, transactions.status,
           transactions.cryptocurrency, transactions.date
    from public.transactions
    where transactions.user_id = $1
    order by transactions.date desc
    limit 20
  )
  select count(*) as total, coalesce(json_agg(_postgrest_t), '[]') as body
  from (select * from pgrst_source) as _postgrest_t`;

/** One list request: a transaction, the claims, the statement (timed), commit — as PostgREST does it. */
async function timedList(
  client: pg.PoolClient,
  userId: string,
  underRls: boolean,
): Promise<[number, string]> {
  await client.query('begin');
  if (underRls) await client.query('set local role authenticated');
  await client.query(`select set_config('request.jwt.claims', $1, true)`, [
    JSON.stringify({ sub: userId, role: 'authenticated' }),
  ]);
  const started = performance.now();
  const { rows } = await client.query<{ body: unknown }>({
    name: underRls ? 'list-rls' : 'list-postgres',
    text: listQuery,
    values: [userId],
  });
  const elapsed = performance.now() - started;
  await client.query('commit');
  return [elapsed, JSON.stringify(rows[0]?.body)];
}

async function main() {
  await withBenchDatabase({ connections: 2 }, async ({ pool }) => {
    const loadStarted = performance.now();
    const userIds = await loadBenchData(pool, { people: PEOPLE, transactions: TRANSACTIONS });
    console.log(
      `Loaded ${TRANSACTIONS.toLocaleString('en-US')} transactions across ${PEOPLE.toLocaleString('en-US')} people in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );

    const client = await pool.connect();
    const samples = { rls: [] as number[], postgres: [] as number[] };
    let mismatches = 0;
    try {
      for (let i = 0; i < WARM_UP + SAMPLES; i++) {
        const userId = userIds[i % userIds.length] ?? '';
        // Alternate which goes first, so neither side always meets a warmer cache.
        const order = i % 2 === 0 ? [true, false] : [false, true];
        const results = new Map<boolean, [number, string]>();
        for (const underRls of order) results.set(underRls, await timedList(client, userId, underRls));
        const [rlsMs, rlsBody] = results.get(true) ?? [Number.NaN, ''];
        const [postgresMs, postgresBody] = results.get(false) ?? [Number.NaN, ''];
        if (rlsBody !== postgresBody) mismatches++;
        if (i >= WARM_UP) {
          samples.rls.push(rlsMs);
          samples.postgres.push(postgresMs);
        }
      }
    } finally {
      client.release();
    }

    const sortedRls = samples.rls.sort((a, b) => a - b);
    const sortedPostgres = samples.postgres.sort((a, b) => a - b);
    const rls = { median: percentile(sortedRls, 0.5), p95: percentile(sortedRls, 0.95) };
    const plain = { median: percentile(sortedPostgres, 0.5), p95: percentile(sortedPostgres, 0.95) };
    const ratio = rls.median / plain.median;

    console.log(
      `\nTransaction list (own rows, newest first, 20 rows): ${SAMPLES} samples each, after ${WARM_UP} warm-up`,
    );
    console.table({
      'authenticated, RLS on': {
        'median ms': Number(rls.median.toFixed(3)),
        'p95 ms': Number(rls.p95.toFixed(3)),
      },
      'postgres, no RLS': {
        'median ms': Number(plain.median.toFixed(3)),
        'p95 ms': Number(plain.p95.toFixed(3)),
      },
    });
    const ratioMet = ratio <= BUDGET_RATIO;
    const p95Met = rls.p95 <= BUDGET_P95_MS;
    console.log(
      `ratio (median RLS / no RLS): ${ratio.toFixed(2)} (budget <= ${BUDGET_RATIO}): ${ratioMet ? 'met' : 'MISSED'}`,
    );
    console.log(
      `p95 under RLS: ${rls.p95.toFixed(3)} ms (budget <= ${BUDGET_P95_MS} ms): ${p95Met ? 'met' : 'MISSED'}`,
    );
    console.log(`same rows both ways: ${mismatches === 0 ? 'yes' : `NO (${mismatches} differ)`}`);
    if (!ratioMet || !p95Met || mismatches > 0) process.exitCode = 1;
    await recordRun({
      'RLS median ms': Number(rls.median.toFixed(3)),
      'RLS p95 ms': Number(rls.p95.toFixed(3)),
      'no RLS median ms': Number(plain.median.toFixed(3)),
      'ratio RLS / no RLS': Number(ratio.toFixed(2)),
    });
  });
}

await main();
