/**
 * Edge Function latency through the gateway: the first call of the `market` function (cold: the
 * gateway starts its Deno worker) and 50 calls after it (warm: the long-lived worker answers). The
 * gateway runs in its own process. Budgets: cold ≤ 5,000 ms, warm p95 ≤ 50 ms.
 *
 * `npm run bench -- gateway-functions`
 */
import { performance } from 'node:perf_hooks';
import { startPostgres } from '../devstack/src/db/postgres';
import { prepareDatabase } from '../devstack/src/db/prepare';
import { reportBudgetChecks, type BudgetCheck } from './support/budget-checks';
import { startGatewayProcess } from './support/gateway-process';
import { percentile } from './support/stats';

const WARM_CALLS = 50;
const BUDGET = { coldMs: 5_000, warmP95Ms: 50 };

async function timedCall(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

async function main() {
  const postgres = await startPostgres();
  try {
    await prepareDatabase(postgres.url, { seed: false });
    const gateway = await startGatewayProcess(postgres.url);
    try {
      const url = `${gateway.url}/functions/v1/market/coins/markets?vs_currency=usd&order=market_cap_desc&per_page=10&page=1`;
      const cold = await timedCall(url);
      const warm: number[] = [];
      for (let call = 0; call < WARM_CALLS; call++) warm.push(await timedCall(url));
      warm.sort((a, b) => a - b);
      const format = (value: number) => Number(value.toFixed(1));
      const checks = {
        'cold call ms': [format(cold), `<= ${BUDGET.coldMs}`, cold <= BUDGET.coldMs],
        'warm p50 ms': [format(percentile(warm, 0.5)), 'reported', true],
        'warm p95 ms': [
          format(percentile(warm, 0.95)),
          `<= ${BUDGET.warmP95Ms}`,
          percentile(warm, 0.95) <= BUDGET.warmP95Ms,
        ],
      } satisfies Record<string, BudgetCheck>;
      reportBudgetChecks(checks);
    } finally {
      await gateway.stop();
    }
  } finally {
    await postgres.stop();
  }
}

await main();
