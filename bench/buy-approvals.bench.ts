/**
 * Buy-approval throughput: 8 admins approve a queue of 2,000 pending requests from 200 users at the
 * same time. 5% of the requests are handed to two admins at once, to show that none is approved
 * twice; the money invariants are checked afterwards, on every path.
 *
 * Two paths, each on a fresh queue of the same shape:
 * - database: `approve_buy_request` called as PostgREST calls it (one transaction, `authenticated`
 *   role, the admin's JWT claims), 8 connections;
 * - API: supabase-js `rpc('approve_buy_request')` over HTTP through the local stack's gateway, one
 *   client per admin (the gateway runs in this process, so it shares the CPU with the clients).
 *
 * Budget: at least 300 approvals per second on the database path, which is what production runs
 * (PostgREST sends the same statements to the same function). The local gateway is a development
 * stand-in; its figure is printed against the budget for information and does not fail the run.
 *
 * Runs on its own stack with durable commits (fsync on): `npx tsx bench/buy-approvals.bench.ts`.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { WebSocketLikeConstructor } from '@supabase/realtime-js';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import ws from 'ws';
import { createJwtVerifier } from '../devstack/src/gateway/jwt';
import { createJwtKeys } from '../devstack/src/jwt-keys';
import { startStack, type RunningStack } from '../devstack/src/stack';
import type { Database } from '../src/types/database';
import {
  approveAsAdmin,
  readMoneyInvariants,
  type ApprovalWorkload,
} from '../tests/support/buy-approval-workload';
import { ADMINS, createApprovableQueue, REQUESTS_PER_USER, USERS } from './support/approval-queue';
import { withTempDataDir } from './support/database';
import { percentile } from './support/stats';
import { recordRun } from './support/results';

const DUPLICATE_EVERY = 20;
const BUDGET_APPROVALS_PER_SECOND = 300;

type Outcome = 'approved' | 'insufficient' | 'already decided' | 'error';
/** Approves one request as the admin at `adminIndex`; throws with the database's message when refused. */
type Approve = (adminIndex: number, requestId: string) => Promise<void>;

function classify(error: unknown): Outcome {
  if (!(error instanceof Error)) return 'error';
  if (error.message === 'Insufficient balance') return 'insufficient';
  if (error.message === 'Request has already been decided') return 'already decided';
  console.error(error);
  return 'error';
}

async function measure(
  path: string,
  budgeted: boolean,
  pool: pg.Pool,
  workload: ApprovalWorkload,
  approve: Approve,
) {
  // Every 20th request is queued twice in a row, so two admins decide it at the same moment.
  const queue = workload.requestIds.flatMap((id, index) => (index % DUPLICATE_EVERY === 0 ? [id, id] : [id]));
  const outcomes: Record<Outcome, number> = { approved: 0, insufficient: 0, 'already decided': 0, error: 0 };
  const latencies: number[] = [];
  let next = 0;

  const started = performance.now();
  await Promise.all(
    workload.adminIds.map(async (_adminId, adminIndex) => {
      for (let requestId = queue[next++]; requestId; requestId = queue[next++]) {
        const callStarted = performance.now();
        const outcome = await approve(adminIndex, requestId).then((): Outcome => 'approved', classify);
        latencies.push(performance.now() - callStarted);
        outcomes[outcome]++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;

  const invariants = await readMoneyInvariants(pool);
  latencies.sort((a, b) => a - b);
  const approvalsPerSecond = outcomes.approved / seconds;
  return {
    path,
    budgeted,
    approvalsPerSecond,
    invariantsHold: Object.values(invariants).every((count) => count === 0) && outcomes.error === 0,
    row: {
      calls: queue.length,
      approved: outcomes.approved,
      'Insufficient balance': outcomes.insufficient,
      'already decided': outcomes['already decided'],
      'other errors': outcomes.error,
      s: Number(seconds.toFixed(2)),
      'approvals/s': Math.round(approvalsPerSecond),
      'p50 ms': Number(percentile(latencies, 0.5).toFixed(1)),
      'p95 ms': Number(percentile(latencies, 0.95).toFixed(1)),
      'max ms': Number(percentile(latencies, 1).toFixed(1)),
      'balance < 0': invariants.negativeBalances,
      'balance ≠ ledger': invariants.ledgerMismatches,
      'approved twice': invariants.approvedTwice,
      'half applied': invariants.halfApplied,
    },
  };
}

/** Through the database, as PostgREST runs the call: one pooled connection per admin. */
async function measureDatabasePath(pool: pg.Pool) {
  const workload = await createApprovableQueue(pool, 'bench-db');
  await pool.query('vacuum analyze');
  const connections = await Promise.all(workload.adminIds.map(() => pool.connect()));
  try {
    return await measure('database', true, pool, workload, (adminIndex, requestId) => {
      const connection = connections[adminIndex];
      const adminId = workload.adminIds[adminIndex];
      if (!connection || !adminId) throw new Error(`No admin ${adminIndex}`);
      return approveAsAdmin(connection, adminId, requestId);
    });
  } finally {
    for (const connection of connections) connection.release();
  }
}

/** Through the API gateway with supabase-js, each admin holding a signed session token. */
async function measureApiPath(pool: pg.Pool, stack: RunningStack) {
  const workload = await createApprovableQueue(pool, 'bench-api');
  await pool.query('vacuum analyze');
  const jwt = createJwtVerifier(await createJwtKeys({ secret: stack.jwtSecret }));
  const expiresAt = Math.floor(Date.now() / 1000) + 3600;
  const admins = await Promise.all(
    workload.adminIds.map(async (adminId) => {
      // Admins work at aal2: the token of an admin who verified their code.
      const token = await jwt.sign(
        { sub: adminId, role: 'authenticated', aud: 'authenticated', aal: 'aal2' },
        expiresAt,
      );
      return createClient<Database>(stack.apiUrl, stack.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false },
        global: { headers: { Authorization: `Bearer ${token}` } },
        // Node 20 has no WebSocket of its own; ws behaves as realtime-js expects, only its typings differ.
        realtime: { transport: ws as unknown as WebSocketLikeConstructor },
      });
    }),
  );
  return measure('API (supabase-js)', false, pool, workload, async (adminIndex, requestId) => {
    const admin = admins[adminIndex];
    if (!admin) throw new Error(`No admin ${adminIndex}`);
    // The workload wrote the current price; each call is the approval alone, with its key.
    const { error } = await admin.rpc('approve_buy_request', {
      request_id: requestId,
      idempotency_key: randomUUID(),
    });
    if (error) throw new Error(error.message);
  });
}

async function main() {
  await withTempDataDir(async (dataDir) => {
    const stack = await startStack({ dataDir });
    const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: ADMINS + 2 });
    // Idle connections are ended by the server when the stack stops; that is not a failure.
    pool.on('error', () => undefined);
    try {
      const results = [await measureDatabasePath(pool), await measureApiPath(pool, stack)];
      console.log(
        `Buy approvals: ${ADMINS} concurrent admins, ${USERS * REQUESTS_PER_USER} pending requests on ${USERS} users, per path`,
      );
      console.table(Object.fromEntries(results.map((result) => [result.path, result.row])));
      for (const result of results) {
        const withinBudget = result.approvalsPerSecond >= BUDGET_APPROVALS_PER_SECOND;
        const budget = `budget >= ${BUDGET_APPROVALS_PER_SECOND} approvals/s ${withinBudget ? 'met' : 'MISSED'}`;
        console.log(
          `${result.path}: ${budget}${result.budgeted ? '' : ' (for information)'}; invariants ${result.invariantsHold ? 'hold' : 'BROKEN'}`,
        );
        if ((result.budgeted && !withinBudget) || !result.invariantsHold) process.exitCode = 1;
      }
      await recordRun(
        Object.fromEntries(
          results.map((result) => [
            `${result.path} approvals/s`,
            Number(result.approvalsPerSecond.toFixed(1)),
          ]),
        ),
      );
    } finally {
      await pool.end();
      await stack.stop();
    }
  });
}

await main();
