/**
 * Buy-approval throughput: 8 admins approve a queue of 2,000 pending requests from 200 users at the
 * same time, each call made as the API makes it (one transaction, `authenticated` role, the admin's
 * JWT claims). 5% of the requests are handed to two admins at once, to show that none is approved
 * twice. The money invariants are checked afterwards. Budget: at least 300 approvals per second.
 *
 * Runs on its own Postgres with durable commits (fsync on), not the shared test stack:
 * `npx tsx bench/buy-approvals.bench.ts`.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startPostgres } from '../devstack/db/postgres';
import { prepareDatabase } from '../devstack/db/prepare';
import {
  approveAsAdmin,
  createApprovalWorkload,
  readMoneyInvariants,
} from '../tests/support/buy-approval-workload';

const ADMINS = 8;
const USERS = 200;
const REQUESTS_PER_USER = 10;
const DUPLICATE_EVERY = 20;
const BUDGET_APPROVALS_PER_SECOND = 300;

type Outcome = 'approved' | 'insufficient' | 'already decided' | 'error';

function classify(error: unknown): Outcome {
  if (!(error instanceof Error)) return 'error';
  if (error.message === 'Insufficient balance') return 'insufficient';
  if (error.message === 'Request has already been decided') return 'already decided';
  console.error(error);
  return 'error';
}

function percentile(sortedValues: number[], fraction: number): number {
  const index = Math.min(sortedValues.length - 1, Math.ceil(fraction * sortedValues.length) - 1);
  return sortedValues[Math.max(0, index)] ?? 0;
}

async function main() {
  const parentDir = await mkdtemp(path.join(tmpdir(), 'coinvault-bench-'));
  await chmod(parentDir, 0o777);
  const postgres = await startPostgres({ dataDir: path.join(parentDir, 'data') });
  const pool = new pg.Pool({ connectionString: postgres.url, max: ADMINS });
  try {
    await prepareDatabase(postgres.url, { seed: false });
    // 10 requests of 60 to 150 USD (1,050 in all) against 1,000 deposited: each user's last one is refused.
    const workload = await createApprovalWorkload(pool, {
      admins: ADMINS,
      users: USERS,
      requestsPerUser: REQUESTS_PER_USER,
      deposit: 1000,
      requestAmount: (index) => 60 + index * 10,
      label: 'bench',
    });
    await pool.query('vacuum analyze');

    // Every 20th request is queued twice in a row, so two admins decide it at the same moment.
    const queue = workload.requestIds.flatMap((id, index) =>
      index % DUPLICATE_EVERY === 0 ? [id, id] : [id],
    );
    const outcomes: Record<Outcome, number> = {
      approved: 0,
      insufficient: 0,
      'already decided': 0,
      error: 0,
    };
    const latencies: number[] = [];
    let next = 0;

    const started = performance.now();
    await Promise.all(
      workload.adminIds.map(async (adminId) => {
        const client = await pool.connect();
        try {
          for (let requestId = queue[next++]; requestId; requestId = queue[next++]) {
            const callStarted = performance.now();
            const outcome = await approveAsAdmin(client, adminId, requestId).then(
              (): Outcome => 'approved',
              classify,
            );
            latencies.push(performance.now() - callStarted);
            outcomes[outcome]++;
          }
        } finally {
          client.release();
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;

    const invariants = await readMoneyInvariants(pool);
    latencies.sort((a, b) => a - b);
    const approvalsPerSecond = outcomes.approved / seconds;
    const invariantsHold = Object.values(invariants).every((count) => count === 0) && outcomes.error === 0;
    const withinBudget = approvalsPerSecond >= BUDGET_APPROVALS_PER_SECOND;

    console.log(
      `Buy approvals: ${ADMINS} concurrent admins, ${workload.requestIds.length} pending requests on ${USERS} users`,
    );
    console.table({
      'calls (incl. duplicates)': queue.length,
      approved: outcomes.approved,
      'refused: Insufficient balance': outcomes.insufficient,
      'refused: already decided': outcomes['already decided'],
      'unexpected errors': outcomes.error,
      'wall time (s)': Number(seconds.toFixed(2)),
      'approvals/s': Math.round(approvalsPerSecond),
      'p50 ms': Number(percentile(latencies, 0.5).toFixed(1)),
      'p95 ms': Number(percentile(latencies, 0.95).toFixed(1)),
      'max ms': Number(percentile(latencies, 1).toFixed(1)),
      'negative balances': invariants.negativeBalances,
      'balance <> ledger': invariants.ledgerMismatches,
      'approved twice': invariants.approvedTwice,
      'half-applied approvals': invariants.halfApplied,
    });
    console.log(
      `Budget >= ${BUDGET_APPROVALS_PER_SECOND} approvals/s: ${withinBudget ? 'met' : 'MISSED'}; invariants: ${invariantsHold ? 'hold' : 'BROKEN'}`,
    );
    if (!withinBudget || !invariantsHold) process.exitCode = 1;
  } finally {
    await pool.end();
    await postgres.stop();
    await rm(parentDir, { recursive: true, force: true });
  }
}

await main();
