/**
 * POST /functions/v1/run-recurring-buys — runs the recurring buys that are due (run_recurring_buys) and answers
 * `{ runs }`, the runs recorded: batch after batch while there are due ones, for up to 45 s. Called with the service-role key by a schedule (Supabase Cron, every minute;
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

Deno.serve(
  serveJson('Failed to run the recurring buys', async (request) => {
    requireScheduler(request, 'Only the scheduler runs the recurring buys');
    await refreshPrices();
    // A database call runs one batch of due schedules (1,000) in one transaction; calls go on while a batch
    // found work, so a morning's thousands of 09:00 schedules run now rather than a thousand a minute.
    const until = Date.now() + runForMs;
    let runs = 0;
    for (;;) {
      const { data, error } = await serviceClient().rpc('run_recurring_buys');
      throwIfFailed(error);
      runs += data ?? 0;
      if (!data || Date.now() > until) break;
    }
    return jsonResponse(200, { runs });
  }),
);
