import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type RunningPostgres } from '../../devstack/src/db/postgres';
import { prepareDatabase } from '../../devstack/src/db/prepare';
import {
  approveAsAdmin,
  createApprovalWorkload,
  readMoneyInvariants,
} from '../support/buy-approval-workload';

const BURST = 200;
const CONCURRENT_ADMINS = 8;
/** Postgres is killed once this many approvals were confirmed, so the rest are in flight or queued. */
const KILL_AFTER_CONFIRMED = 60;

/** The postmaster's process id: the first line of postmaster.pid in the data folder. */
async function postmasterPid(dataDir: string): Promise<number> {
  const [firstLine] = (await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n');
  return Number(firstLine);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Restarts on the same data folder; right after a kill the old backends may still hold shared memory. */
async function restart(dataDir: string, port: number): Promise<RunningPostgres> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPostgres({ dataDir, port });
    } catch (error) {
      if (attempt === 20) throw error;
      await sleep(500);
    }
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe('buy approvals when Postgres is killed mid-burst', () => {
  let parentDir: string;
  let postgres: RunningPostgres | undefined;

  beforeAll(async () => {
    parentDir = await mkdtemp(path.join(tmpdir(), 'coinvault-crash-'));
    // As root the server runs as the postgres user, which must be able to create its data folder here.
    await chmod(parentDir, 0o777);
  });

  afterAll(async () => {
    await postgres?.stop();
    await rm(parentDir, { recursive: true, force: true });
  });

  it('applies every approval wholly or not at all, keeps confirmed ones, and balances equal the ledger', async () => {
    const dataDir = path.join(parentDir, 'data');
    postgres = await startPostgres({ dataDir });
    const { url, port } = postgres;
    await prepareDatabase(url, { seed: false });

    // 20 users with 10 requests each; a pending buy holds its USD back, so each deposit covers exactly
    // what its person's requests hold (50 + 60 + … + 140).
    const workload = await withClient(url, (client) =>
      createApprovalWorkload(client, {
        admins: CONCURRENT_ADMINS,
        users: BURST / 10,
        requestsPerUser: 10,
        deposit: 950,
        requestAmount: (index) => 50 + index * 10,
        label: 'crash',
      }),
    );
    expect(workload.requestIds).toHaveLength(BURST);

    const confirmed = new Set<string>();
    let killed = false;
    let nextRequest = 0;
    const pid = await postmasterPid(dataDir);

    const admins = workload.adminIds.map(async (adminId) => {
      const client = new pg.Client({ connectionString: url });
      // A killed server ends every connection; those errors are the point of this test.
      client.on('error', () => undefined);
      await client.connect();
      while (!killed && nextRequest < BURST) {
        const requestId = workload.requestIds[nextRequest++];
        if (!requestId) break;
        try {
          await approveAsAdmin(client, adminId, requestId);
          confirmed.add(requestId);
        } catch (error) {
          if (error instanceof Error && error.message === 'Insufficient balance') continue;
          break;
        }
        if (confirmed.size === KILL_AFTER_CONFIRMED && !killed) {
          killed = true;
          process.kill(pid, 'SIGKILL');
        }
      }
      await client.end().catch(() => undefined);
    });
    await Promise.all(admins);

    expect(killed).toBe(true);
    while (isAlive(pid)) await sleep(100);
    postgres = await restart(dataDir, port);

    await withClient(url, async (client) => {
      const { rows } = await client.query<{ id: string; status: string }>(
        'select id, status from public.buy_requests where id = any($1::uuid[])',
        [workload.requestIds],
      );
      const approved = new Set(rows.filter((row) => row.status === 'approved').map((row) => row.id));

      // Confirmed before the crash means durable; the crash left work undone.
      expect([...confirmed].filter((id) => !approved.has(id))).toEqual([]);
      expect(approved.size).toBeLessThan(BURST);

      expect(await readMoneyInvariants(client)).toEqual({
        negativeBalances: 0,
        ledgerMismatches: 0,
        approvedTwice: 0,
        halfApplied: 0,
      });
      const audit = await client.query<{ count: number }>(
        `select count(*)::int as count from public.audit_log
         where action = 'buy_request.approve' and target_id = any($1::uuid[])`,
        [workload.requestIds],
      );
      expect(audit.rows[0]?.count).toBe(approved.size);

      // The restarted database carries on: the rest of the queue can be decided.
      const [adminId] = workload.adminIds;
      if (!adminId) throw new Error('The workload has no admin');
      for (const row of rows.filter((candidate) => candidate.status === 'pending')) {
        await approveAsAdmin(client, adminId, row.id).catch((error: unknown) => {
          if (!(error instanceof Error && error.message === 'Insufficient balance')) throw error;
        });
      }
      expect(await readMoneyInvariants(client)).toMatchObject({ ledgerMismatches: 0, halfApplied: 0 });
    });
  }, 180_000);
});
