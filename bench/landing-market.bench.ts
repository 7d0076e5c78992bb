/**
 * The `market` function under 200 concurrent visitors: all 200 arrive at once on a cold cache, then
 * each asks again every 1 to 3 s for 125 s (100 requests a second on average, far more than visitors
 * refetching once a minute), on the clock: a visitor's next request is due 1 to 3 s after its last was
 * due, however long the answer took, so the offered load is the bench's and not the server's pace. 90% ask the landing's query (top 10), 10% another one (top 2), through
 * the gateway exactly as browsers do. Upstream calls are counted by the simulator. Each visitor connects
 * from its own loopback address (127.0.0.2 …), as 200 people would, so the function's per-address limit
 * (300 a minute, keyed on the connection's address) sees 200 callers, not one.
 * Budget: the requests sent reach ≥ 95 % of those due (else the run did not reach the load and fails as
 * such); per query at least two upstream calls (one gap to measure: the run spans three minutes begun)
 * and no two less than a minute apart (0.5 s allowed for transport jitter), i.e. 1 upstream call per
 * query per minute; no failed request; p95 <= 250 ms.
 *
 * Runs its own throwaway stack: `npm run bench -- landing-market`.
 */
import { performance } from 'node:perf_hooks';
import { startStack } from '../devstack/src/stack';
import type { MarketSimulator } from '../stubs/market-simulator/simulator';
import { reachedLoad, reportBudgetChecks } from './support/budget-checks';
import { percentile } from './support/stats';
import { callerAt } from '../tests/support/from-address';

const VISITORS = 200;
const DURATION_MS = 125_000;
/** Each visitor asks once at the start, then every 2 s on average. */
const DUE_REQUESTS = VISITORS * (1 + DURATION_MS / 2_000);
const BUDGET_P95_MS = 250;
const MIN_GAP_MS = 60_000 - 500;
const queries = {
  'top 10': 'vs_currency=usd&order=market_cap_desc&per_page=10&page=1&sparkline=false',
  'top 2': 'vs_currency=usd&order=market_cap_desc&per_page=2&page=1&sparkline=false',
} as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const stack = await startStack();
  try {
    const endpoint = `${stack.apiUrl}/functions/v1/market/coins/markets`;
    // Start the function's worker (Deno boot) first: visitors meet a running function. This warm-up
    // asks a query the visitors do not, so their queries start on a cold cache.
    await fetch(`${endpoint}?vs_currency=usd&per_page=1`);
    const started = performance.now();
    const startedAt = Date.now();
    const latencies: number[] = [];
    const failures: string[] = [];
    const cacheStates = new Map<string, number>();

    async function visitor(index: number) {
      const query = index % 10 === 0 ? queries['top 2'] : queries['top 10'];
      const caller = callerAt(`127.0.${Math.floor((index + 2) / 256)}.${(index + 2) % 256}`);
      let due = started;
      while (due - started < DURATION_MS) {
        const before = performance.now();
        try {
          const response = await caller.get(`${endpoint}?${query}`);
          const body = JSON.parse(response.body) as unknown;
          latencies.push(performance.now() - before);
          const state = response.headers.get('x-market-cache') ?? 'none';
          cacheStates.set(state, (cacheStates.get(state) ?? 0) + 1);
          if (response.status !== 200 || !Array.isArray(body)) failures.push(`status ${response.status}`);
        } catch (error) {
          failures.push(String(error));
        }
        due += 1_000 + Math.random() * 2_000;
        await sleep(due - performance.now());
      }
      caller.close();
    }

    await Promise.all(Array.from({ length: VISITORS }, (_, index) => visitor(index)));
    const elapsedMs = performance.now() - started;

    const calls = (stack.gateway.upstreams.simulator as MarketSimulator)
      .stats()
      .calls.filter((call) => call.at >= startedAt);
    const upstream = Object.entries(queries).map(([name, query]) => {
      const times = calls
        .filter(
          (call) =>
            new URLSearchParams(call.query).get('per_page') === new URLSearchParams(query).get('per_page'),
        )
        .map((call) => call.at)
        .sort((a, b) => a - b);
      const gaps = times.slice(1).map((time, index) => time - (times[index] ?? time));
      return {
        query: name,
        'upstream calls': times.length,
        // One call per query per minute: at most one per minute begun (t = 0, 60 s, 120 s).
        'minutes begun': Math.ceil(elapsedMs / 60_000),
        'shortest gap s': gaps.length ? Number((Math.min(...gaps) / 1000).toFixed(2)) : null,
        // With fewer than two calls there is no gap to hold to the budget.
        ok: times.length >= 2 && gaps.every((gap) => gap >= MIN_GAP_MS),
      };
    });

    const sorted = [...latencies].sort((a, b) => a - b);
    const p95 = percentile(sorted, 0.95);
    console.log(`${VISITORS} visitors for ${(elapsedMs / 1000).toFixed(0)} s through the gateway`);
    const sent = latencies.length + failures.filter((failure) => !failure.startsWith('status')).length;
    console.table({
      requests: sent,
      'requests per second': Number((latencies.length / (elapsedMs / 1000)).toFixed(1)),
      failed: failures.length,
      'p50 ms': Number(percentile(sorted, 0.5).toFixed(1)),
      'p95 ms': Number(p95.toFixed(1)),
      'p99 ms': Number(percentile(sorted, 0.99).toFixed(1)),
      'max ms': Number((sorted.at(-1) ?? NaN).toFixed(1)),
      ...Object.fromEntries([...cacheStates].map(([state, count]) => [`cache ${state}`, count])),
    });
    console.table(upstream);
    if (failures.length) console.log('first failures:', [...new Set(failures)].slice(0, 5).join('; '));
    await reportBudgetChecks(
      {
        'requests sent': reachedLoad(sent, DUE_REQUESTS, 'requests due'),
        ...Object.fromEntries(
          upstream.map((row) => [
            `${row.query}: upstream calls ≥ 2, none < 1 min apart`,
            [row['upstream calls'], `≥ 2, shortest gap ≥ ${MIN_GAP_MS / 1000} s`, row.ok] as const,
          ]),
        ),
        'failed requests': [failures.length, '0', failures.length === 0],
        'p95 ms': [Number(p95.toFixed(1)), `≤ ${BUDGET_P95_MS}`, p95 <= BUDGET_P95_MS],
      },
      { 'p50 ms': Number(percentile(sorted, 0.5).toFixed(1)) },
    );
  } finally {
    await stack.stop();
  }
}

await main();
