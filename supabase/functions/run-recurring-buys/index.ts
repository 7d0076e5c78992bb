/**
 * POST /functions/v1/run-recurring-buys — runs the recurring buys that are due (run_recurring_buys) and answers
 * `{ runs }`, the runs recorded: batch after batch while there are due ones, two sessions at once, for up to 45 s.
 * Called with the service-role key by a schedule (Supabase Cron, every minute;
 * the local stack's `schedules`). A run prices its buy at a snapshot of the last 2 minutes, and snapshots are
 * recorded when the market function fetches fresh prices, so it asks the market function first, with the
 * app's own query (shared by every visitor for a minute); without an answer the due runs are skipped as
 * "market data is late", not placed at an old price. Two calls at once are safe: each occurrence runs once.
 */
import {
  environment,
  jsonResponse,
  requireScheduler,
  serveJson,
  serviceClient,
  throwIfFailed,
} from '../_shared/http.ts';

const marketQuery = 'vs_currency=usd&order=market_cap_desc&per_page=10&page=1&sparkline=false';

/** How long one call goes on running batches: the schedule calls again a minute after it started. */
const runForMs = 45_000;

/**
 * Batches run at once, each in its own database session: `for update skip locked` gives each its own schedules,
 * and the people's locks keep one person's runs in order. Two, as a database here has two cores.
 */
const parallelSessions = 2;

/** Asks the market function for this minute's prices, which it records; a failure is logged, never thrown. */
async function refreshPrices() {
  const url = `${environment('SUPABASE_URL')}/functions/v1/market/coins/markets?${marketQuery}`;
  try {
    const response = await fetch(url);
    await response.body?.cancel();
    if (!response.ok) console.error(`market answered ${response.status}: due runs are skipped as late`);
  } catch (error) {
    console.error(`market did not answer (${String(error)}): due runs are skipped as late`);
  }
}

/** One session's batches (a database call each, 1,000 due schedules in one transaction) while they find work. */
async function runBatches(until: number): Promise<number> {
  let runs = 0;
  for (;;) {
    const { data, error } = await serviceClient().rpc('run_recurring_buys');
    throwIfFailed(error);
    runs += data ?? 0;
    if (!data || Date.now() > until) return runs;
  }
}

Deno.serve(
  serveJson('Failed to run the recurring buys', async (request) => {
    requireScheduler(request, 'Only the scheduler runs the recurring buys');
    await refreshPrices();
    // Calls go on while a batch found work, so a morning's thousands of 09:00 schedules run now rather than a
    // thousand a minute.
    const until = Date.now() + runForMs;
    const sessions = await Promise.all(Array.from({ length: parallelSessions }, () => runBatches(until)));
    return jsonResponse(200, { runs: sessions.reduce((total, runs) => total + runs, 0) });
  }),
);
