/**
 * The journal's costs, on one durable database (fsync on), same run, same machine:
 *
 * - approvals per second with the journal and chain against the same approvals without them (the journal's
 *   trigger disabled), alternated twice (without, with, without, with) and the better run of each kept. Budget:
 *   at most 25 % slower, at least 1,000 approvals/s. The load is an admin fleet: 8 admins, each on their own
 *   connection, take the next of 2,000 pending buy requests as soon as their last approval answered; each
 *   approval is one transaction in one round trip, as PostgREST runs an admin's Apply (role, claims, the RPC).
 *   The run counts only if the 8 kept approvals in flight (time-averaged ≥ 95 % of 8) and every request was
 *   approved. Beside the rate it reports the database's CPU per approval (what the rate is bound by on a
 *   machine of 2 shared cores) and the load average before and after;
 * - verifying a chain of 1,000,000 entries (ledger.chain_differences from genesis). Budget: ≤ 60 s;
 * - a checkpoint over 100,000 people (ledger.create_checkpoint). Budget: ≤ 30 s;
 * - one person's inclusion proof (ledger.liability_proof), 200 people at random. Budget: p95 ≤ 50 ms.
 *
 * With the journal, the time counted runs until every entry is sealed (writers seal while they run; the rest
 * is sealed by ledger.seal at the end, inside the timing). `LEDGER_BENCH_ONLY=approvals` runs the first part
 * alone (a short run, for comparing designs on a shared machine).
 *
 * Each part checks it reached the load it claims (approvals made, entries verified, leaves in the tree, path
 * length) before its figure counts. The million entries are written straight into the journal (hashes
 * computed here with the documented canonical form, which the verification then recomputes in SQL): deposits of
 * 100,000 people, ten each. Run: `npm run bench -- ledger`.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { verifyLiabilityProof } from '../packages/domain/liability-proof';
import { approveAsAdmin, readMoneyInvariants } from '../tests/support/buy-approval-workload';
import { loadavg } from 'node:os';
import { ADMINS, createApprovableQueue, REQUESTS_PER_USER, USERS } from './support/approval-queue';
import { inTransaction, withBenchDatabase, withTempDataDir } from './support/database';
import { type BudgetCheck, reachedLoad, reportBudgetChecks } from './support/budget-checks';
import { postgresCpuMs } from './support/cpu';
import { percentile } from './support/stats';

/** Every request is approved (pending buys hold their USD, and the deposit covers them): per run. */
const EXPECTED_APPROVALS = USERS * REQUESTS_PER_USER;
const CHAIN_ENTRIES = 1_000_000;
const PEOPLE = 100_000;
const PROOFS = 200;
const BATCH = 10_000;

const approvalsOnly = process.env.LEDGER_BENCH_ONLY === 'approvals';

interface ApprovalRun {
  perSecond: number;
  /** Postgres CPU (every backend and helper process) per approval, in ms. */
  cpuMsPerApproval: number;
  /** Approvals in flight, averaged over the time the admins worked. */
  inFlight: number;
}

const loadAverage = () => (loadavg()[0] ?? 0).toFixed(1);

async function approvals(
  pool: pg.Pool,
  dataDir: string,
  label: string,
  journaled: boolean,
): Promise<ApprovalRun> {
  const workload = await createApprovableQueue(pool, label);
  await pool.query('vacuum analyze');
  const connections = await Promise.all(workload.adminIds.map(() => pool.connect()));
  let next = 0;
  let approved = 0;
  // The time integral of approvals in flight, to check the fleet kept its 8 at work.
  let inFlight = 0;
  let inFlightMs = 0;
  let lastChange = performance.now();
  const inFlightChanges = (by: number) => {
    const now = performance.now();
    inFlightMs += inFlight * (now - lastChange);
    lastChange = now;
    inFlight += by;
  };
  const cpuBefore = (await postgresCpuMs(dataDir, pool)).total;
  const started = performance.now();
  let worked = 0;
  try {
    await Promise.all(
      connections.map(async (connection, index) => {
        const adminId = workload.adminIds[index] ?? '';
        for (
          let requestId = workload.requestIds[next++];
          requestId;
          requestId = workload.requestIds[next++]
        ) {
          inFlightChanges(1);
          await approveAsAdmin(connection, adminId, requestId)
            .then(
              () => approved++,
              (error: Error) => {
                if (error.message !== 'Insufficient balance') throw error;
              },
            )
            .finally(() => inFlightChanges(-1));
        }
      }),
    );
    inFlightChanges(0);
    worked = performance.now() - started;
  } finally {
    for (const connection of connections) connection.release();
  }
  if (journaled) {
    const { rows } = await pool.query<{ queued: number; sealed: number }>(
      'select (select count(*)::integer from ledger.unsealed_entries) as queued, ledger.seal() as sealed',
    );
    console.log(`${label}: ${rows[0]?.queued} of ${approved} entries awaited the final seal`);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = (await postgresCpuMs(dataDir, pool)).total - cpuBefore;
  const invariants = await readMoneyInvariants(pool);
  if (approved !== EXPECTED_APPROVALS || Object.values(invariants).some((count) => count !== 0)) {
    throw new Error(
      `${label}: ${approved} approvals of ${EXPECTED_APPROVALS}, invariants ${JSON.stringify(invariants)}`,
    );
  }
  const run = {
    perSecond: approved / seconds,
    cpuMsPerApproval: cpuMs / approved,
    inFlight: inFlightMs / worked,
  };
  console.log(
    `${label}: ${Math.round(run.perSecond)} approvals/s, ${run.cpuMsPerApproval.toFixed(2)} ms of Postgres CPU each, ` +
      `${run.inFlight.toFixed(2)} in flight on average, load average ${loadAverage()}`,
  );
  return run;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * A million deposit entries after the journal's head, chained and hashed here exactly as ledger.append_entry
 * would (docs/architecture.md, "Canonical form"), written with triggers off for speed.
 */
async function writeChain(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ seq: string; hash: string }>(
    `select seq, encode(hash, 'hex') as hash from ledger.head`,
  );
  const head = rows[0];
  if (!head) throw new Error('no head');
  let seq = Number(head.seq);
  let previous = head.hash;
  const recordedAt = '2026-11-27T00:00:00.000000Z';
  const people = Array.from(
    { length: PEOPLE },
    (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  );
  await inTransaction(pool, async (client) => {
    await client.query('set local session_replication_role = replica');
    await client.query(
      `insert into ledger.accounts (name, owner_id, kind, currency)
       select 'person:' || id || ':USD', id, 'person', 'USD' from unnest($1::uuid[]) as id
       on conflict do nothing`,
      [people],
    );
    await client.query(
      `insert into ledger.accounts (name, kind, currency) values ('house:bank:USD', 'bank', 'USD') on conflict do nothing`,
    );
    for (let written = 0; written < CHAIN_ENTRIES; written += BATCH) {
      const seqs: number[] = [];
      const prevs: string[] = [];
      const hashes: string[] = [];
      const accounts: string[] = [];
      const amounts: string[] = [];
      for (let index = 0; index < BATCH; index += 1) {
        seq += 1;
        const account = `person:${people[seq % PEOPLE]}:USD`;
        const amount = String(10 + (seq % 990));
        const canonical = JSON.stringify([
          'coinvault-ledger-entry-v1',
          seq,
          previous,
          recordedAt,
          null,
          'deposit',
          'complete',
          null,
          [
            ['house:bank:USD', 'USD', amount],
            [account, 'USD', `-${amount}`],
          ],
        ]);
        const hash = sha256(canonical);
        seqs.push(seq);
        prevs.push(previous);
        hashes.push(hash);
        accounts.push(account);
        amounts.push(amount);
        previous = hash;
      }
      await client.query(
        `insert into ledger.entries (seq, recorded_at, transaction_type, transaction_status, prev_hash, hash)
         select seq, $4, 'deposit', 'complete', decode(prev, 'hex'), decode(hash, 'hex')
         from unnest($1::bigint[], $2::text[], $3::text[]) as chain (seq, prev, hash)`,
        [seqs, prevs, hashes, recordedAt],
      );
      await client.query(
        `insert into ledger.postings (entry_seq, position, account, currency, amount)
         select seq, 1, 'house:bank:USD', 'USD', amount from unnest($1::bigint[], $2::numeric[]) as legs (seq, amount)
         union all
         select seq, 2, account, 'USD', -amount
         from unnest($1::bigint[], $2::numeric[], $3::text[]) as legs (seq, amount, account)`,
        [seqs, amounts, accounts],
      );
    }
    await client.query(`update ledger.head set seq = $1, hash = decode($2, 'hex')`, [seq, previous]);
  });
  await pool.query('vacuum analyze');
}

/** Verifying a million entries, a checkpoint over 100,000 people and one person's proof: their budget checks. */
async function chainCheckpointAndProofs(pool: pg.Pool): Promise<Record<string, BudgetCheck>> {
  const loadStarted = performance.now();
  await writeChain(pool);
  console.log(
    `Wrote ${CHAIN_ENTRIES.toLocaleString()} entries in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
  );

  const verifyStarted = performance.now();
  const { rows: verified } = await pool.query<{ differences: string; entries: string }>(
    `select (select count(*) from ledger.chain_differences(0, decode(repeat('00', 32), 'hex'))) as differences,
            (select count(*) from ledger.entries) as entries`,
  );
  const verifySeconds = (performance.now() - verifyStarted) / 1000;
  console.log(`Verified the chain in ${verifySeconds.toFixed(1)} s`);
  const chain = verified[0];
  if (!chain || Number(chain.differences) !== 0 || Number(chain.entries) < CHAIN_ENTRIES) {
    throw new Error(`chain not verified as written: ${JSON.stringify(chain)}`);
  }

  const checkpointStarted = performance.now();
  const { rows: made } = await pool.query<{ id: string }>('select ledger.create_checkpoint(null) as id');
  const checkpointSeconds = (performance.now() - checkpointStarted) / 1000;
  console.log(`Checkpoint in ${checkpointSeconds.toFixed(1)} s`);
  const { rows: latest } = await pool.query<{ id: string; people: number; root: string }>(
    `select id, people, encode(root_hash, 'hex') as root from ledger.checkpoints where id = $1`,
    [made[0]?.id],
  );
  const checkpoint = latest[0];
  if (!checkpoint || checkpoint.people < PEOPLE) {
    throw new Error(`checkpoint over ${checkpoint?.people} people, not ${PEOPLE}`);
  }

  const latencies: number[] = [];
  for (let index = 0; index < PROOFS; index += 1) {
    const person = `00000000-0000-4000-8000-${String(Math.floor(Math.random() * PEOPLE)).padStart(12, '0')}`;
    const started = performance.now();
    const { rows } = await pool.query<{ proof: unknown }>('select ledger.liability_proof($1, $2) as proof', [
      person,
      checkpoint.id,
    ]);
    latencies.push(performance.now() - started);
    const verdict = await verifyLiabilityProof(rows[0]?.proof, { publishedRoot: checkpoint.root });
    if (!verdict.valid || (verdict.proof?.checkpoint.people ?? 0) < PEOPLE) {
      throw new Error(`proof of ${person} does not verify: ${JSON.stringify(verdict.checks)}`);
    }
  }
  latencies.sort((a, b) => a - b);

  return {
    [`verify ${CHAIN_ENTRIES.toLocaleString()} entries (s)`]: [
      Number(verifySeconds.toFixed(1)),
      '<= 60',
      verifySeconds <= 60,
    ],
    [`checkpoint over ${checkpoint.people.toLocaleString()} people (s)`]: [
      Number(checkpointSeconds.toFixed(1)),
      '<= 30',
      checkpointSeconds <= 30,
    ],
    'one proof, p95 (ms)': [
      Number(percentile(latencies, 0.95).toFixed(1)),
      '<= 50',
      percentile(latencies, 0.95) <= 50,
    ],
  };
}

async function main() {
  await withTempDataDir((folder) =>
    withBenchDatabase({ connections: ADMINS + 2, seed: true, dataDir: folder }, async ({ pool, dataDir }) => {
      const journalTrigger = (enabled: boolean) =>
        pool.query(
          `alter table public.transactions ${enabled ? 'enable' : 'disable'} trigger record_in_journal_at_commit`,
        );
      console.log(`Load average before the approvals: ${loadAverage()}`);
      const without: ApprovalRun[] = [];
      const withJournal: ApprovalRun[] = [];
      for (const round of [1, 2]) {
        await journalTrigger(false);
        without.push(await approvals(pool, dataDir, `without-${round}`, false));
        await journalTrigger(true);
        withJournal.push(await approvals(pool, dataDir, `with-${round}`, true));
      }
      const best = (runs: ApprovalRun[]) =>
        runs.reduce((faster, run) => (run.perSecond > faster.perSecond ? run : faster));
      const bestWithout = best(without);
      const bestWith = best(withJournal);
      const slower = (1 - bestWith.perSecond / bestWithout.perSecond) * 100;
      const fewestInFlight = Math.min(...[...without, ...withJournal].map((run) => run.inFlight));

      await reportBudgetChecks(
        {
          'approvals in flight (fewest of the 4 runs)': reachedLoad(fewestInFlight, ADMINS, 'admins at work'),
          'approvals/s with the journal': [
            Math.round(bestWith.perSecond),
            '>= 1,000',
            bestWith.perSecond >= 1000,
            'BELOW THE FLOOR',
          ],
          'slower than without the journal (%)': [Number(slower.toFixed(1)), '<= 25', slower <= 25],
          ...(approvalsOnly ? {} : await chainCheckpointAndProofs(pool)),
        },
        {
          'approvals/s without the journal': Math.round(bestWithout.perSecond),
          'Postgres CPU per approval with the journal (ms)': Number(bestWith.cpuMsPerApproval.toFixed(2)),
          'Postgres CPU per approval without the journal (ms)': Number(
            bestWithout.cpuMsPerApproval.toFixed(2),
          ),
        },
      );
    }),
  );
}

await main();
