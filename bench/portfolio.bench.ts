/**
 * The portfolio's reads for a person with 10,000 transactions (deposits, and buys and sells of 10 coins
 * with their quantities, over a year), among 100,000 transactions of 1,000 people, with a year of price
 * snapshots of the 10 coins as the market function keeps them (hourly for a year, each minute for the
 * last day). Run as PostgREST runs it for the signed-in person (`authenticated`, JWT claims, RLS on).
 *
 * - holdings (the `holdings` view: bought - sold per coin, from the ledger): p95 <= 50 ms (the wallet page
 *   reads it on every load and after every ledger change; a page's reads together stay well under a tenth
 *   of a second);
 * - portfolio_history per range (the wallet's chart: the value at each minute of 24 h, each hour of 7 d
 *   and 30 d, each day of all, here a year): p95 <= 250 ms (read when the chart opens or its range
 *   changes, while the chart's own code loads; all, the year's 10,000 entries in one running sum with the
 *   snapshots, is the slowest; the shorter ranges start from the quantities held at their start).
 *
 * Runs on its own throwaway Postgres: `npm run bench -- portfolio`.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { withBenchDatabase } from './support/database';
import { loadBenchData } from './support/bulk-load';
import { percentile } from './support/stats';
import { recordRun } from './support/results';

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
const HOLDINGS_BUDGET_P95_MS = 50;
const HISTORY_BUDGET_P95_MS = 250;
const HISTORY_RANGES = ['24h', '7d', '30d', 'all'] as const;

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

// The statement PostgREST builds for `.rpc('portfolio_history', { range })` (the wallet's chart).
const historyQuery = `
  with pgrst_source as (select pgrst_call.* from public.portfolio_history("range" := $1) as pgrst_call)
  select count(*) as total, coalesce(json_agg(_postgrest_t), '[]') as body
  from (select * from pgrst_source) as _postgrest_t`;

interface Measured {
  samples: number[];
  total: number;
}

/** Runs a read as the signed-in person, each in its own transaction as PostgREST does; times the read. */
async function measure(
  client: pg.PoolClient,
  personId: string,
  query: { name: string; text: string; values: unknown[] },
  { warmUp, samples }: { warmUp: number; samples: number },
): Promise<Measured> {
  const measured: Measured = { samples: [], total: 0 };
  for (let i = 0; i < warmUp + samples; i++) {
    await client.query('begin');
    await client.query('set local role authenticated');
    await client.query(`select set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify({ sub: personId, role: 'authenticated' }),
    ]);
    const started = performance.now();
    const { rows } = await client.query<{ total: string }>(query);
    const elapsed = performance.now() - started;
    await client.query('commit');
    measured.total = Number(rows[0]?.total ?? 0);
    if (i >= warmUp) measured.samples.push(elapsed);
  }
  return measured;
}

async function main() {
  await withBenchDatabase({ connections: 2 }, async ({ pool }) => {
    const loadStarted = performance.now();
    let heavyPerson = '';
    await loadBenchData(pool, { people: PEOPLE, transactions: TRANSACTIONS }, async (client, personIds) => {
      heavyPerson = personIds[0] ?? '';
      // Buys seven times as often as sells, each of one of the 10 coins, filled at a price that wanders,
      // one every 52 minutes or so back to a year ago.
      await client.query(
        `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price, date)
         select $1::uuid, kinds.type, 10 + n % 90, 'complete', coins.coin,
                round((10 + n % 90)::numeric / (100 + n % 37), 18), 100 + n % 37,
                now() - make_interval(mins => n * 52)
         from generate_series(1, $2::int) as n
         cross join lateral (
           select (case when n % 8 = 0 then 'sell' else 'buy' end)::public.transaction_type as type
         ) as kinds
         cross join lateral (select ($3::text[])[1 + n % array_length($3::text[], 1)] as coin) as coins`,
        [heavyPerson, HEAVY_PERSON_TRANSACTIONS, COINS],
      );
      // A year of hourly snapshots and a day of minute ones per coin, as record_price_snapshots keeps them.
      await client.query(
        `insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly)
         select coin, round((100 + 30 * sin(extract(epoch from at) / 20000 + ordinality))::numeric, 8), at,
                at = date_trunc('hour', at)
         from unnest($1::text[]) with ordinality as coins (coin, ordinality)
         cross join (
           select date_trunc('hour', now()) - make_interval(hours => n) as at from generate_series(24, 365 * 24 - 1) as n
           union all
           select date_trunc('minute', now()) - make_interval(mins => n) from generate_series(0, 24 * 60 - 1) as n
         ) as moments`,
        [COINS],
      );
    });
    await pool.query('vacuum analyze public.transactions, public.price_snapshots');
    console.log(
      `Loaded ${(TRANSACTIONS + HEAVY_PERSON_TRANSACTIONS).toLocaleString('en-US')} transactions (${HEAVY_PERSON_TRANSACTIONS.toLocaleString('en-US')} of one person) in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );

    const client = await pool.connect();
    const results: Record<string, Measured & { budget: number; expected: (total: number) => boolean }> = {};
    try {
      results.holdings = {
        ...(await measure(
          client,
          heavyPerson,
          { name: 'holdings', text: holdingsQuery, values: [heavyPerson] },
          { warmUp: 100, samples: 1_000 },
        )),
        budget: HOLDINGS_BUDGET_P95_MS,
        expected: (coins) => coins === COINS.length,
      };
      for (const range of HISTORY_RANGES) {
        results[`portfolio_history ${range}`] = {
          ...(await measure(
            client,
            heavyPerson,
            { name: 'portfolio_history', text: historyQuery, values: [range] },
            { warmUp: 5, samples: 100 },
          )),
          budget: HISTORY_BUDGET_P95_MS,
          // 24 h: a point a minute (at least 23 hours of them); 7 d and 30 d: a point an hour; all (a year
          // here): a point a day and each hour of today.
          expected: (points) =>
            ({
              '24h': points >= 23 * 60,
              '7d': points >= 167,
              '30d': points >= 719,
              all: points >= 360 && points <= 360 + 25,
            })[range],
        };
      }
    } finally {
      client.release();
    }

    console.log(
      `\nReads of a person with ${HEAVY_PERSON_TRANSACTIONS.toLocaleString('en-US')} transactions, as that person (authenticated, RLS on)`,
    );
    console.table(
      Object.fromEntries(
        Object.entries(results).map(([read, { samples, total, budget }]) => [
          read,
          {
            samples: samples.length,
            'median ms': Number(percentile(samples, 0.5).toFixed(3)),
            'p95 ms': Number(percentile(samples, 0.95).toFixed(3)),
            'budget p95 ms': budget,
            rows: total,
          },
        ]),
      ),
    );
    for (const [read, { samples, total, budget, expected }] of Object.entries(results)) {
      const p95 = percentile(samples, 0.95);
      const met = p95 <= budget && expected(total);
      console.log(
        `${read}: p95 ${p95.toFixed(3)} ms (budget <= ${budget} ms), ${total} rows: ${met ? 'met' : 'MISSED'}`,
      );
      if (!met) process.exitCode = 1;
    }
    await recordRun(
      Object.fromEntries(
        Object.entries(results).flatMap(([read, { samples }]) => [
          [`${read} median ms`, Number(percentile(samples, 0.5).toFixed(3))],
          [`${read} p95 ms`, Number(percentile(samples, 0.95).toFixed(3))],
        ]),
      ),
    );
  });
}

await main();
