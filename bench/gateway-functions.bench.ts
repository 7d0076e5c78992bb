/**
 * Edge Function latency through the gateway: the first call of the `market` function (cold: the gateway
 * starts its Deno worker), then warm calls apart by what the function does for them: 9 cache misses (each
 * a query not asked before, answered from the upstream provider) and 50 cache hits (a query asked
 * before, answered from the function's cache). Which is which is read from the function's own
 * `x-market-cache` header, not assumed. The gateway runs in its own process.
 *
 * Budgets: cold ≤ 5,000 ms, warm cache-hit p95 ≤ 50 ms, warm cache-miss max ≤ 500 ms (one upstream call
 * to the local simulator), and every call answered as it was meant to be (a miss or a hit).
 *
 * `npm run bench -- gateway-functions`
 */
import { performance } from 'node:perf_hooks';
import { reportBudgetChecks, type BudgetCheck } from './support/budget-checks';
import { withGatewayProcess } from './support/gateway-process';
import { percentile } from './support/stats';

/** Queries the function accepts are the top 1 to 10 coins: the cold call asks 10, the misses 1 to 9. */
const MISS_QUERIES = 9;
const HIT_CALLS = 50;
const BUDGET = { coldMs: 5_000, hitP95Ms: 50, missMaxMs: 500 };

async function timedCall(url: string): Promise<{ ms: number; cache: string }> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return { ms: performance.now() - started, cache: response.headers.get('x-market-cache') ?? 'none' };
}

async function main() {
  await withGatewayProcess(async (gateway) => {
    const topCoins = (count: number) =>
      `${gateway.url}/functions/v1/market/coins/markets?vs_currency=usd&order=market_cap_desc&per_page=${count}&page=1`;
    const cold = await timedCall(topCoins(10));
    const misses: number[] = [];
    const hits: number[] = [];
    const unexpected: string[] = [];
    for (let count = 1; count <= MISS_QUERIES; count++) {
      const call = await timedCall(topCoins(count));
      if (call.cache === 'miss') misses.push(call.ms);
      else unexpected.push(`top ${count}, first asked: ${call.cache}`);
    }
    for (let call = 0; call < HIT_CALLS; call++) {
      const answer = await timedCall(topCoins(10));
      if (answer.cache === 'hit') hits.push(answer.ms);
      else unexpected.push(`top 10, asked again: ${answer.cache}`);
    }
    if (unexpected.length > 0) console.log('calls not answered as meant:', unexpected.join('; '));
    const format = (value: number) => Number(value.toFixed(1));
    const missMax = Math.max(...misses);
    const checks = {
      'cold call ms': [format(cold.ms), `≤ ${BUDGET.coldMs}`, cold.ms <= BUDGET.coldMs],
      'warm cache-miss p50 ms': [format(percentile(misses, 0.5)), 'reported', true],
      'warm cache-miss max ms': [format(missMax), `≤ ${BUDGET.missMaxMs}`, missMax <= BUDGET.missMaxMs],
      'warm cache-hit p50 ms': [format(percentile(hits, 0.5)), 'reported', true],
      'warm cache-hit p95 ms': [
        format(percentile(hits, 0.95)),
        `≤ ${BUDGET.hitP95Ms}`,
        percentile(hits, 0.95) <= BUDGET.hitP95Ms,
      ],
      'calls not answered as meant': [unexpected.length, '0', unexpected.length === 0],
    } satisfies Record<string, BudgetCheck>;
    await reportBudgetChecks(checks);
  });
}

await main();
