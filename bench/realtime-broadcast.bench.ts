/**
 * Broadcast against Postgres Changes as the number of people signed in grows: 500 single-row ledger
 * commits per second for 20 s, spread over the people, each person subscribed to their own changes:
 * - Broadcast: each joined to their private topic `user:<id>:wallet` (the app's design; the database
 *   trigger writes one realtime.messages row per change);
 * - Postgres Changes: each on `transactions` filtered to `user_id=eq.<id>` (the design it replaces);
 * at 200 and at 2,000 subscribers, Realtime in its own process. Measures delivery latency (Broadcast:
 * arrival − the row's `date`; Postgres Changes: arrival − `commit_timestamp`), deliveries missing 30 s after
 * the last commit, and CPU per 1,000 commits: Postgres in all and by connection, and the Realtime process.
 *
 * Budgets (Broadcast at 2,000 subscribers): delivery p95 ≤ 250 ms, all delivered, Postgres CPU per change
 * within 1.3× of the same at 200; and the load reached: 2,000 joined, ≥ 95 % of 500 commits/s in both
 * Broadcast runs (else the run measured something else and fails as such).
 * Postgres Changes is measured for comparison (docs/capacity.md), without a budget.
 *
 * `npm run bench -- realtime-broadcast` (`BENCH_SECONDS=5` for a short run).
 */
import { loadavg } from 'node:os';
import type { SupabaseClient } from '@supabase/supabase-js';
import { benchSeconds, reachedLoad, reportBudgetChecks } from './support/budget-checks';
import { postgresCpuMs, processCpuMs } from './support/cpu';
import {
  type BenchPerson,
  commitDepositsAtRate,
  now,
  subscribeToLedger,
  subscribeToWalletTopic,
  waitUntil,
  withRealtimeBench,
  closeSubscribers,
} from './support/realtime';
import { percentile } from './support/stats';

const CHANGES_PER_SECOND = 500;
const DURATION_S = benchSeconds(20);
const WRITERS = 8;
const SUBSCRIBER_COUNTS = [200, 2000] as const;
const JOIN_CONCURRENCY = 50;
const DRAIN_TIMEOUT_MS = 30_000;
const BUDGET = { p95Ms: 250, cpuGrowth: 1.3 };

type Design = 'Broadcast' | 'Postgres Changes';

interface RunResult {
  design: Design;
  subscribers: number;
  achievedPerSecond: number;
  delivered: number;
  undelivered: number;
  p50: number;
  p95: number;
  max: number;
  postgresCpuPerThousand: number;
  byKind: Record<string, number>;
  realtimeCpuPerThousand: number;
}

async function joinAll(
  people: BenchPerson[],
  join: (person: BenchPerson) => Promise<SupabaseClient>,
): Promise<SupabaseClient[]> {
  const clients: SupabaseClient[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: JOIN_CONCURRENCY }, async () => {
      for (let index = next++; index < people.length; index = next++) {
        clients.push(await join(people[index] as BenchPerson));
      }
    }),
  );
  return clients;
}

async function main() {
  await withRealtimeBench(
    { people: Math.max(...SUBSCRIBER_COUNTS), admins: 0, connections: WRITERS + 2 },
    async ({ dataDir, pool, people: everyone, realtime }) => {
      const realtimeUrl = realtime.url;
      const realtimePid = realtime.child.pid ?? 0;
      const results: RunResult[] = [];

      for (const design of ['Broadcast', 'Postgres Changes'] as const) {
        for (const subscribers of SUBSCRIBER_COUNTS) {
          const people = everyone.slice(0, subscribers);
          const arrivals = new Map<string, number>();
          const onArrival = (id: string, latencyMs: number) => arrivals.set(id, latencyMs);
          const joinStarted = now();
          const clients = await joinAll(people, (person) =>
            design === 'Broadcast'
              ? subscribeToWalletTopic(realtimeUrl, person, onArrival)
              : subscribeToLedger(realtimeUrl, person, onArrival),
          );
          console.log(
            `${design}: ${clients.length} subscribers joined in ${((now() - joinStarted) / 1000).toFixed(1)} s; ` +
              `${CHANGES_PER_SECOND} commits/s for ${DURATION_S} s…`,
          );

          const cpuBefore = {
            realtime: await processCpuMs(realtimePid),
            postgres: await postgresCpuMs(dataDir, pool),
          };
          const total = CHANGES_PER_SECOND * DURATION_S;
          const committed: string[] = [];
          const writeSeconds = await commitDepositsAtRate(pool, {
            total,
            perSecond: CHANGES_PER_SECOND,
            writers: WRITERS,
            owners: people,
            committed: (id) => committed.push(id),
          });
          const allArrived = () => committed.every((id) => arrivals.has(id));
          await waitUntil(allArrived, DRAIN_TIMEOUT_MS, 200);

          const postgresAfter = await postgresCpuMs(dataDir, pool);
          const perThousand = (ms: number) => Number(((ms * 1000) / total).toFixed(0));
          const byKind: Record<string, number> = {};
          for (const kind of Object.keys(postgresAfter.byKind)) {
            const spent = (postgresAfter.byKind[kind] ?? 0) - (cpuBefore.postgres.byKind[kind] ?? 0);
            if (spent > 0) byKind[kind] = perThousand(spent);
          }
          const latencies = committed.flatMap((id) => {
            const latency = arrivals.get(id);
            return latency === undefined ? [] : [latency];
          });
          results.push({
            design,
            subscribers: clients.length,
            achievedPerSecond: Number((total / writeSeconds).toFixed(0)),
            delivered: latencies.length,
            undelivered: committed.length - latencies.length,
            p50: Number(percentile(latencies, 0.5).toFixed(1)),
            p95: Number(percentile(latencies, 0.95).toFixed(1)),
            max: Number(Math.max(...latencies).toFixed(1)),
            postgresCpuPerThousand: perThousand(postgresAfter.total - cpuBefore.postgres.total),
            byKind,
            realtimeCpuPerThousand: perThousand((await processCpuMs(realtimePid)) - cpuBefore.realtime),
          });
          await closeSubscribers(clients);
        }
      }

      console.log(`load average now ${loadavg()[0]?.toFixed(1)}`);
      console.table(
        results.map(({ byKind: _byKind, ...result }) => ({
          ...result,
          'Postgres CPU ms / 1,000 commits': result.postgresCpuPerThousand,
          'Realtime CPU ms / 1,000 commits': result.realtimeCpuPerThousand,
        })),
      );
      console.log('Postgres CPU ms per 1,000 commits, by connection:');
      console.table(
        Object.fromEntries(
          results.map((result) => [`${result.design} × ${result.subscribers}`, result.byKind]),
        ),
      );

      const broadcast = (subscribers: number) =>
        results.find(
          (result) => result.design === 'Broadcast' && result.subscribers === subscribers,
        ) as RunResult;
      const small = broadcast(SUBSCRIBER_COUNTS[0]);
      const large = broadcast(SUBSCRIBER_COUNTS[1]);
      const growth = large.postgresCpuPerThousand / small.postgresCpuPerThousand;
      await reportBudgetChecks(
        {
          'Broadcast subscribers joined at 2,000': reachedLoad(
            large.subscribers,
            SUBSCRIBER_COUNTS[1],
            'subscribers',
          ),
          'Broadcast commits/s reached at 200': reachedLoad(
            small.achievedPerSecond,
            CHANGES_PER_SECOND,
            'commits/s',
          ),
          'Broadcast commits/s reached at 2,000': reachedLoad(
            large.achievedPerSecond,
            CHANGES_PER_SECOND,
            'commits/s',
          ),
          'Broadcast delivery p95 ms at 2,000': [large.p95, `≤ ${BUDGET.p95Ms}`, large.p95 <= BUDGET.p95Ms],
          'Broadcast undelivered at 2,000': [large.undelivered, '0', large.undelivered === 0],
          'Postgres CPU per change, 2,000 / 200 subscribers': [
            Number(growth.toFixed(2)),
            `≤ ${BUDGET.cpuGrowth}`,
            growth <= BUDGET.cpuGrowth,
          ],
        },
        Object.fromEntries(
          results.flatMap((result) => {
            const run = `${result.design} × ${result.subscribers}`;
            return [
              [`${run}: p95 ms`, result.p95],
              [`${run}: undelivered`, result.undelivered],
              [`${run}: Postgres CPU ms per 1,000 commits`, result.postgresCpuPerThousand],
              [`${run}: Realtime CPU ms per 1,000 commits`, result.realtimeCpuPerThousand],
            ];
          }),
        ),
      );
    },
  );
}

await main();
