/**
 * The recurring-buy scheduler over 100,000 schedules due at once (20 for each of 5,000 people, as a
 * morning's 09:00 would have them), run as the `run-recurring-buys` function runs them: `run_recurring_buys`
 * again and again in two sessions at once, a batch of 1,000 a transaction, until a call finds nothing due.
 * Budget: every schedule run in ≤ 30 s, and memory bounded — a database session's own memory after its last
 * batch at most 1.5 × its memory after its first (a run that kept every batch's rows would grow with the
 * schedules).
 *
 * The batches are called as the database owner, as a pg_cron job would call them.
 *
 * Runs on its own throwaway Postgres: `npm run bench -- recurring-buys`.
 */
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startPostgres } from '../devstack/src/db/postgres';
import { prepareDatabase } from '../devstack/src/db/prepare';
import { reachedLoad, reportBudgetChecks, type BudgetCheck } from './support/budget-checks';
import { loadBenchData } from './support/bulk-load';

const PEOPLE = 5_000;
const SCHEDULES_PER_PERSON = 20;
const SCHEDULES = PEOPLE * SCHEDULES_PER_PERSON;
const BUDGET_SECONDS = 30;
const BUDGET_MEMORY_GROWTH = 1.5;
/** Sessions calling at once, as the function does (`parallelSessions`). */
const SESSIONS = 2;

/**
 * The memory the database session holds for itself (kB), from its memory contexts: not the shared buffers
 * it touched, which the kernel would count in the process's resident size.
 */
async function sessionMemoryKb(client: pg.PoolClient): Promise<number> {
  const { rows } = await client.query<{ kb: string }>(
    'select sum(total_bytes) / 1024 as kb from pg_backend_memory_contexts',
  );
  return Math.round(Number(rows[0]?.kb ?? Number.NaN));
}

/**
 * The CPU seconds a database session's process has used (user + system, /proc/<pid>/stat in clock ticks of
 * 1/100 s): the work the runs cost, whatever else the machine is doing, beside the wall-clock budget.
 */
async function sessionCpuSeconds(client: pg.PoolClient): Promise<number> {
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  const stat = await readFile(`/proc/${rows[0]?.pid}/stat`, 'utf8');
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** One session's batches until a call finds nothing due, with its memory after its first and last batch. */
async function runBatches(client: pg.PoolClient) {
  let runs = 0;
  let calls = 0;
  let firstBatchKb = 0;
  for (;;) {
    const { rows } = await client.query<{ runs: number }>('select public.run_recurring_buys() as runs');
    calls += 1;
    const batchRuns = rows[0]?.runs ?? 0;
    runs += batchRuns;
    if (calls === 1) firstBatchKb = await sessionMemoryKb(client);
    if (batchRuns === 0) break;
  }
  return { runs, calls, firstBatchKb, lastBatchKb: await sessionMemoryKb(client) };
}

async function main() {
  const postgres = await startPostgres();
  const pool = new pg.Pool({ connectionString: postgres.url, max: SESSIONS + 1 });
  pool.on('error', () => undefined);
  try {
    await prepareDatabase(postgres.url, { seed: false });
    const loadStarted = performance.now();
    // A deposit covers each person's 20 buys of 10 USD; the schedules were due a minute ago.
    await loadBenchData(pool, { people: PEOPLE, transactions: PEOPLE }, async (client, personIds) => {
      await client.query(
        `insert into public.transactions (user_id, type, amount, status, date)
         select id, 'deposit', 1000, 'complete', now() - interval '1 day' from unnest($1::uuid[]) as id`,
        [personIds],
      );
      await client.query(
        `insert into public.recurring_buys (user_id, cryptocurrency, amount, frequency, time_of_day, time_zone, next_run_at)
         select ($1::uuid[])[1 + n % $2::int], 'bitcoin', 10, 'daily', '09:00', 'Europe/Berlin',
                now() - interval '1 minute'
         from generate_series(0, $3::int - 1) as n`,
        [personIds, PEOPLE, SCHEDULES],
      );
    });
    // This minute's price, as the market function records it before the scheduler runs.
    await pool.query(
      `insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly)
       values ('bitcoin', 50000, date_trunc('minute', now()), false)`,
    );
    await pool.query('vacuum analyze');
    console.log(
      `Loaded ${SCHEDULES.toLocaleString('en-US')} due schedules of ${PEOPLE.toLocaleString('en-US')} people in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );

    const clients = await Promise.all(Array.from({ length: SESSIONS }, () => pool.connect()));
    const cpuBefore = await Promise.all(clients.map(sessionCpuSeconds));
    const started = performance.now();
    try {
      const sessions = await Promise.all(clients.map((client) => runBatches(client)));
      const seconds = (performance.now() - started) / 1000;
      const cpuAfter = await Promise.all(clients.map(sessionCpuSeconds));
      const cpuSeconds = cpuAfter.reduce((total, after, index) => total + after - (cpuBefore[index] ?? 0), 0);
      const runs = sessions.reduce((total, session) => total + session.runs, 0);
      const calls = sessions.reduce((total, session) => total + session.calls, 0);
      const firstBatchKb = Math.max(...sessions.map((session) => session.firstBatchKb));
      const lastBatchKb = Math.max(...sessions.map((session) => session.lastBatchKb));
      const growth = Math.max(...sessions.map((session) => session.lastBatchKb / session.firstBatchKb));
      const { rows: outcomes } = await pool.query<{ placed: string; skipped: string }>(
        `select count(*) filter (where buy_request_id is not null) as placed,
                count(*) filter (where buy_request_id is null) as skipped
         from public.recurring_buy_runs`,
      );
      const checks: Record<string, BudgetCheck> = {
        'schedules run': reachedLoad(runs, SCHEDULES, 'schedules'),
        // Each a full buy, not a cheap skip (the price is fresh for two minutes and the deposits cover all).
        'buys placed': reachedLoad(Number(outcomes[0]?.placed ?? 0), SCHEDULES, 'buys'),
        'seconds for all': [Number(seconds.toFixed(1)), `≤ ${BUDGET_SECONDS}`, seconds <= BUDGET_SECONDS],
        'session memory, last / first batch': [
          Number(growth.toFixed(2)),
          `≤ ${BUDGET_MEMORY_GROWTH}`,
          growth <= BUDGET_MEMORY_GROWTH,
        ],
      };
      const figures = {
        'database calls': calls,
        'runs/s': Number((runs / seconds).toFixed(0)),
        'database CPU seconds, both sessions': Number(cpuSeconds.toFixed(1)),
        'runs skipped': Number(outcomes[0]?.skipped ?? 0),
        'largest session memory after a first batch (kB)': firstBatchKb,
        'largest session memory after a last batch (kB)': lastBatchKb,
      };
      console.log(`\nRecurring buys: ${SCHEDULES.toLocaleString('en-US')} schedules due at once`);
      console.table(figures);
      await reportBudgetChecks(checks, figures);
    } finally {
      for (const client of clients) client.release();
    }
  } finally {
    await pool.end();
    await postgres.stop();
  }
}

await main();
