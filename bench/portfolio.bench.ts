/**
 * The portfolio's read: a person's holdings (the `holdings` view: bought - sold per coin, from the ledger)
 * for a person with 10,000 transactions (deposits, and buys and sells of 10 coins with their quantities),
 * among 100,000 transactions of 1,000 people. Run as PostgREST runs it for the signed-in person
 * (`authenticated`, JWT claims, RLS on). Budget: p95 <= 50 ms (the wallet page reads it on every load and
 * after every ledger change; a page's reads together stay well under a tenth of a second).
 *
 * Runs on its own throwaway Postgres: `npm run bench -- portfolio`.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startPostgres } from '../devstack/src/db/postgres';
import { prepareDatabase } from '../devstack/src/db/prepare';
import { loadBenchData } from './support/bulk-load';
import { percentile } from './support/stats';

const PEOPLE = 1_000;
const TRANSACTIONS = 100_000;
const HEAVY_PERSON_TRANSACTIONS = 10_000;
const COINS = [
  'bitcoin',
  'ethereum',
  'tether',
  'ripple',
  'binancecoin',
  'solana',
  'usd-coin',
  'dogecoin',
  'cardano',
  'tron',
];
const WARM_UP = 100;
const SAMPLES = 1_000;
const BUDGET_P95_MS = 50;

// The statement PostgREST builds for `.from('holdings').select('cryptocurrency,quantity,average_cost')
// .eq('user_id', uid).gt('quantity', 0).order('cryptocurrency')` (the wallet page's read).
const holdingsQuery = `
  with pgrst_source as (
    select holdings.cryptocurrency, holdings.quantity, holdings.average_cost
    from public.holdings
    where holdings.user_id = $1 and holdings.quantity > 0
    order by holdings.cryptocurrency
  )
  select count(*) as total, coalesce(json_agg(_postgrest_t), '[]') as body
  from (select * from pgrst_source) as _postgrest_t`;

async function main() {
  const postgres = await startPostgres();
  const pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
  // Stopping the server at the end closes connections the pool is still letting go of.
  pool.on('error', () => undefined);
  try {
    await prepareDatabase(postgres.url, { seed: false });
    const loadStarted = performance.now();
    let heavyPerson = '';
    await loadBenchData(pool, { people: PEOPLE, transactions: TRANSACTIONS }, async (client, personIds) => {
      heavyPerson = personIds[0] ?? '';
      // Buys seven times as often as sells, each of one of the 10 coins, filled at a price that wanders.
      await client.query(
        `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price, date)
         select $1::uuid, kinds.type, 10 + n % 90, 'complete', coins.coin,
                round((10 + n % 90)::numeric / (100 + n % 37), 18), 100 + n % 37,
                now() - make_interval(mins => n)
         from generate_series(1, $2::int) as n
         cross join lateral (
           select (case when n % 8 = 0 then 'sell' else 'buy' end)::public.transaction_type as type
         ) as kinds
         cross join lateral (select ($3::text[])[1 + n % array_length($3::text[], 1)] as coin) as coins`,
        [heavyPerson, HEAVY_PERSON_TRANSACTIONS, COINS],
      );
    });
    console.log(
      `Loaded ${(TRANSACTIONS + HEAVY_PERSON_TRANSACTIONS).toLocaleString('en-US')} transactions (${HEAVY_PERSON_TRANSACTIONS.toLocaleString('en-US')} of one person) in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );

    const client = await pool.connect();
    const samples: number[] = [];
    let coinsShown = 0;
    try {
      for (let i = 0; i < WARM_UP + SAMPLES; i++) {
        await client.query('begin');
        await client.query('set local role authenticated');
        await client.query(`select set_config('request.jwt.claims', $1, true)`, [
          JSON.stringify({ sub: heavyPerson, role: 'authenticated' }),
        ]);
        const started = performance.now();
        const { rows } = await client.query<{ total: string }>({
          name: 'holdings',
          text: holdingsQuery,
          values: [heavyPerson],
        });
        const elapsed = performance.now() - started;
        await client.query('commit');
        coinsShown = Number(rows[0]?.total ?? 0);
        if (i >= WARM_UP) samples.push(elapsed);
      }
    } finally {
      client.release();
    }

    const sorted = samples.sort((a, b) => a - b);
    console.log(
      `\nHoldings of a person with ${HEAVY_PERSON_TRANSACTIONS.toLocaleString('en-US')} transactions: ${SAMPLES} samples, after ${WARM_UP} warm-up`,
    );
    console.table({
      'authenticated, RLS on': {
        'median ms': Number(percentile(sorted, 0.5).toFixed(3)),
        'p95 ms': Number(percentile(sorted, 0.95).toFixed(3)),
        coins: coinsShown,
      },
    });
    const p95 = percentile(sorted, 0.95);
    const met = p95 <= BUDGET_P95_MS && coinsShown === COINS.length;
    console.log(
      `p95: ${p95.toFixed(3)} ms (budget <= ${BUDGET_P95_MS} ms), ${coinsShown} coins shown: ${met ? 'met' : 'MISSED'}`,
    );
    if (!met) process.exitCode = 1;
  } finally {
    await pool.end();
    await postgres.stop();
  }
}

await main();
