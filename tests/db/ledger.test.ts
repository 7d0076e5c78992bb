import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  addBuyRequest,
  addPendingDeposit,
  addSellRequest,
  addWithdrawRequest,
  anon,
  connect,
  createUser,
  errorOf,
  onlyRow,
  queryAs,
  signedIn,
  type CreatedUser,
} from '../support/db';
import { verifyLiabilityProof } from '@domain/liability-proof.ts';
import { createLedgerDatabase } from '../support/ledger-database';

/**
 * The journal proves the books: every movement is one balanced, hash-chained entry written with the change,
 * nothing in it is ever rewritten, and the reconciliation finds and names whatever an attacker with the
 * database owner's power changes behind it (triggers disabled, as such an attacker would).
 */
interface Difference {
  check: string;
  entry: number | null;
  subject: string;
  expected: string;
  found: string;
}
interface Report {
  head: { seq: number; hash: string };
  checkpoint: { id: number; head_seq: number; root: string } | null;
  entries_verified: number;
  awaiting_seal: number;
  verified_from: number;
  trusted_checkpoint: { id: number; head_seq: number; head_hash: string } | null;
  scope: string;
  differences: Difference[];
}

let database: Awaited<ReturnType<typeof createLedgerDatabase>>;
let pool: pg.Pool;
let admin: CreatedUser;
let person: CreatedUser;
let pendingDepositId: string;

async function reconcile(
  db: Pick<pg.ClientBase, 'query'> = pool,
  { fromCheckpoint = false } = {},
): Promise<Report> {
  const { rows } = await db.query<{ report: Report }>('select ledger.reconcile($1) as report', [
    fromCheckpoint,
  ]);
  return onlyRow(rows).report;
}

const asAdmin = (sql: string, params: unknown[]) => queryAs(pool, signedIn(admin.id), sql, params);

beforeAll(async () => {
  database = await createLedgerDatabase(inject('databaseUrl'));
  pool = connect(database.url);
  admin = await createUser(pool, { admin: true });
  person = await createUser(pool, { deposit: 1000 });
  const buy = await addBuyRequest(pool, person.id, 200);
  await asAdmin('select public.approve_buy_request($1, gen_random_uuid())', [buy]);
  const sell = await addSellRequest(pool, person.id, 0.001);
  await asAdmin('select public.approve_sell_request($1, gen_random_uuid())', [sell]);
  const withdrawal = await addWithdrawRequest(pool, person.id, 100);
  await asAdmin(`select public.set_withdraw_request_status($1, 'approved', gen_random_uuid())`, [withdrawal]);
  const rejected = await addBuyRequest(pool, person.id, 50);
  await asAdmin('select public.reject_buy_request($1, gen_random_uuid())', [rejected]);
  pendingDepositId = await addPendingDeposit(pool, person.id, 300);
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

describe('the journal', () => {
  it('journals the seeded stack when it is built, and its first reconciliation is clean', async () => {
    const { rows } = await pool.query<{ seq: string; transaction_id: string }>(
      'select seq, transaction_id from ledger.entries order by seq limit 1',
    );
    // The seed's completed 5,000 USD deposit is entry 1.
    expect(onlyRow(rows)).toEqual({ seq: '1', transaction_id: '00000000-0000-4000-8000-0000000de901' });
    const report = await reconcile();
    expect(report.differences).toEqual([]);
    expect(report.entries_verified).toBe(report.head.seq);
  });

  it('records each movement as one entry whose postings sum to zero per currency', async () => {
    const { rows } = await pool.query<{
      transaction_type: string;
      currency: string;
      total: string;
      legs: string;
    }>(
      `select entries.transaction_type, postings.currency, sum(postings.amount)::text as total,
              count(*)::text as legs
       from ledger.entries join ledger.postings on postings.entry_seq = entries.seq
       join ledger.accounts on accounts.name = postings.account
       where accounts.owner_id = $1 or entries.transaction_id in
         (select id from public.transactions where user_id = $1)
       group by entries.seq, entries.transaction_type, postings.currency order by entries.seq, postings.currency`,
      [person.id],
    );
    // The deposit, the coins bought for the sell, the buy and the sale (USD and coin legs), the withdrawal.
    expect(
      rows.map((row) => [row.transaction_type, row.currency, Number(row.total), Number(row.legs)]),
    ).toEqual([
      ['deposit', 'USD', 0, 2],
      ['buy', 'USD', 0, 2],
      ['buy', 'bitcoin', 0, 2],
      ['buy', 'USD', 0, 2],
      ['buy', 'bitcoin', 0, 2],
      ['sell', 'USD', 0, 2],
      ['sell', 'bitcoin', 0, 2],
      ['withdraw', 'USD', 0, 2],
    ]);
  });

  it('writes nothing for a rejected request or a pending deposit', async () => {
    const { rows } = await pool.query('select 1 from ledger.entries where transaction_id = $1', [
      pendingDepositId,
    ]);
    expect(rows).toEqual([]);
  });

  it('appends the entry in the same database transaction as the change, so a rollback leaves neither', async () => {
    const before = await reconcile();
    await expect(
      actAs(pool, signedIn(admin.id), async (db) => {
        await db.query(`select public.set_transaction_status($1, 'complete', gen_random_uuid())`, [
          pendingDepositId,
        ]);
        throw new Error('the request failed after the change');
      }),
    ).rejects.toThrow('the request failed after the change');
    expect((await reconcile()).head).toEqual(before.head);
  });

  it('records a deposit moved out of complete as a new entry that corrects the one before', async () => {
    await asAdmin(`select public.set_transaction_status($1, 'complete', gen_random_uuid())`, [
      pendingDepositId,
    ]);
    await asAdmin(`select public.set_transaction_status($1, 'processing', gen_random_uuid())`, [
      pendingDepositId,
    ]);
    const { rows } = await pool.query<{ seq: string; corrects: string | null; transaction_status: string }>(
      'select seq, corrects, transaction_status from ledger.entries where transaction_id = $1 order by seq',
      [pendingDepositId],
    );
    const [completed, reversed] = [rows[0], rows[1]];
    expect(completed).toMatchObject({ corrects: null, transaction_status: 'complete' });
    expect(reversed).toMatchObject({ corrects: completed?.seq, transaction_status: 'processing' });
    const { rows: legs } = await pool.query<{ account: string; amount: string }>(
      'select account, amount::text from ledger.postings where entry_seq = $1 order by position',
      [reversed?.seq],
    );
    expect(legs).toEqual([
      { account: 'house:bank:USD', amount: '-300' },
      { account: `person:${person.id}:USD`, amount: '300' },
    ]);
    expect((await reconcile()).differences).toEqual([]);
  });

  it('chains each entry to the one before, gapless, with the head at the last', async () => {
    const { rows } = await pool.query<{ gapless: boolean; linked: boolean; at_head: boolean }>(
      `select bool_and(seq = previous_seq + 1) as gapless, bool_and(prev_hash = previous_hash) as linked,
              (select (seq, hash) = (select seq, hash from ledger.entries order by seq desc limit 1) from ledger.head)
                as at_head
       from (select seq, prev_hash, lag(seq, 1, 0::bigint) over (order by seq) as previous_seq,
                    lag(hash, 1, decode(repeat('00', 32), 'hex')) over (order by seq) as previous_hash
             from ledger.entries) as chain`,
    );
    expect(onlyRow(rows)).toEqual({ gapless: true, linked: true, at_head: true });
  });

  it("keeps a closed person's accounts and entries: closing the account writes nothing", async () => {
    const leaving = await createUser(pool, { deposit: 40 });
    await pool.query(
      `insert into public.transactions (user_id, type, amount, status) values ($1, 'withdraw', 40, 'complete')`,
      [leaving.id],
    );
    const before = await reconcile();
    await pool.query('delete from auth.users where id = $1', [leaving.id]);
    const { rows } = await pool.query<{ name: string; balance: string; entries: number }>(
      `select accounts.name, coalesce(-sum(postings.amount), 0)::text as balance, count(postings.*)::int as entries
       from ledger.accounts left join ledger.postings on postings.account = accounts.name
       where accounts.owner_id = $1 group by accounts.name`,
      [leaving.id],
    );
    expect(rows).toEqual([{ name: `person:${leaving.id}:USD`, balance: '0', entries: 2 }]);
    const after = await reconcile();
    expect(after.head).toEqual(before.head);
    expect(after.differences).toEqual([]);
  });

  it('records a deleted transactions row as an entry that takes back what it moved', async () => {
    const holder = await createUser(pool, { deposit: 25 });
    const { rows: deposits } = await pool.query<{ id: string }>(
      'select id from public.transactions where user_id = $1',
      [holder.id],
    );
    await pool.query('delete from public.transactions where id = $1', [onlyRow(deposits).id]);
    const { rows } = await pool.query(
      `select entries.transaction_status, postings.account, postings.amount::text
       from ledger.entries join ledger.postings on postings.entry_seq = entries.seq
       where entries.seq = (select seq from ledger.head) order by postings.position`,
    );
    expect(rows).toEqual([
      { transaction_status: 'deleted', account: 'house:bank:USD', amount: '-25' },
      { transaction_status: 'deleted', account: `person:${holder.id}:USD`, amount: '25' },
    ]);
    expect((await reconcile()).differences).toEqual([]);
  });
});

describe('sealing after commit', () => {
  /**
   * Holds the chain's head as a sealer does, runs `work` on another connection that gives up on any lock wait,
   * and answers what the holder then sees in the queue; the head is let go before the answer.
   */
  async function whileTheHeadIsHeld<T>(work: (writer: pg.PoolClient) => Promise<T>): Promise<T> {
    const holder = await pool.connect();
    const writer = await pool.connect();
    try {
      await holder.query('begin');
      await holder.query('select from ledger.head for update');
      // A writer that waited for the head would fail here rather than hang.
      await writer.query(`set lock_timeout = '5s'`);
      return await work(writer);
    } finally {
      await writer.query('reset lock_timeout');
      await holder.query('rollback');
      holder.release();
      writer.release();
    }
  }

  it("commits a writer's change while the chain's head is held, its entry awaiting seal, sealed in order after", async () => {
    const someone = await createUser(pool);
    const deposit = await addPendingDeposit(pool, someone.id, 40);
    const queued = await whileTheHeadIsHeld(async (writer) => {
      await writer.query(`update public.transactions set status = 'complete' where id = $1`, [deposit]);
      await writer.query(`update public.transactions set status = 'failed' where id = $1`, [deposit]);
      const { rows } = await pool.query<{ transaction_status: string }>(
        'select transaction_status from ledger.unsealed_entries where transaction_id = $1 order by id',
        [deposit],
      );
      return rows;
    });
    expect(queued).toEqual([{ transaction_status: 'complete' }, { transaction_status: 'failed' }]);
    const { rows: before } = await pool.query('select 1 from ledger.entries where transaction_id = $1', [
      deposit,
    ]);
    expect(before).toEqual([]);

    const { rows: sealed } = await pool.query<{ sealed: number }>('select ledger.seal() as sealed');
    expect(sealed[0]?.sealed).toBeGreaterThanOrEqual(2);
    const { rows: chained } = await pool.query<{
      seq: string;
      corrects: string | null;
      transaction_status: string;
    }>(
      'select seq, corrects, transaction_status from ledger.entries where transaction_id = $1 order by seq',
      [deposit],
    );
    expect(chained).toEqual([
      { seq: expect.any(String), corrects: null, transaction_status: 'complete' },
      { seq: String(Number(chained[0]?.seq) + 1), corrects: chained[0]?.seq, transaction_status: 'failed' },
    ]);
    const report = await reconcile();
    expect(report).toMatchObject({ awaiting_seal: 0, differences: [] });
  });

  it('seals what is awaiting before reconciling and checkpointing, so both speak of the chain with it', async () => {
    const someone = await createUser(pool);
    const deposit = await addPendingDeposit(pool, someone.id, 55);
    await whileTheHeadIsHeld((writer) =>
      writer.query(`update public.transactions set status = 'complete' where id = $1`, [deposit]),
    );
    const report = await reconcile();
    const { rows } = await pool.query<{ seq: string }>(
      'select seq from ledger.entries where transaction_id = $1',
      [deposit],
    );
    expect(report).toMatchObject({ head: { seq: Number(rows[0]?.seq) }, awaiting_seal: 0, differences: [] });
    expect(report.scope).toContain('0 entries committed during the run and awaiting the next seal');

    await whileTheHeadIsHeld((writer) =>
      writer.query(`update public.transactions set status = 'failed' where id = $1`, [deposit]),
    );
    const { rows: made } = await pool.query<{ id: string }>('select ledger.create_checkpoint(null) as id');
    const { rows: checkpoint } = await pool.query<{ head_seq: string; entry: string }>(
      `select head_seq, (select max(seq) from ledger.entries where transaction_id = $2) as entry
       from ledger.checkpoints where id = $1`,
      [made[0]?.id, deposit],
    );
    expect(checkpoint[0]?.head_seq).toBe(checkpoint[0]?.entry);
  });

  it('compares the books with sealed and awaiting entries alike, so a change not yet sealed is no difference', async () => {
    const someone = await createUser(pool);
    const deposit = await addPendingDeposit(pool, someone.id, 70);
    await whileTheHeadIsHeld((writer) =>
      writer.query(`update public.transactions set status = 'complete' where id = $1`, [deposit]),
    );
    const { rows: queued } = await pool.query(
      'select 1 from ledger.unsealed_entries where transaction_id = $1',
      [deposit],
    );
    expect(queued).toHaveLength(1);
    const { rows } = await pool.query('select * from ledger.book_differences()');
    expect(rows).toEqual([]);
    await pool.query('select ledger.seal()');
  });

  it('refuses a queued entry that does not balance, as it refuses any write of the journal through the API', async () => {
    const refusal = await errorOf(
      pool.query(
        `insert into ledger.unsealed_entries (transaction_status, accounts, currencies, amounts)
         values ('complete', array['house:bank:USD'], array['USD'], array[100::numeric])`,
      ),
    );
    expect(refusal).toMatchObject({
      code: '23514',
      message: expect.stringContaining('unsealed_entries_balanced'),
    });
    const sealing = await errorOf(queryAs(pool, signedIn(person.id), 'select public.seal_ledger()'));
    expect(sealing.code).toBe('42501');
  });

  it('keeps a queued entry as written and lets it leave only into the chain, refusing even the migration owner', async () => {
    const someone = await createUser(pool);
    const deposit = await addPendingDeposit(pool, someone.id, 85);
    await whileTheHeadIsHeld((writer) =>
      writer.query(`update public.transactions set status = 'complete' where id = $1`, [deposit]),
    );
    // The pool's login owns the journal's tables: the one refuse_rewrite lets through elsewhere.
    const refusals = await Promise.all(
      [
        `update ledger.unsealed_entries set amounts = array[-1000, 1000] where transaction_id = '${deposit}'`,
        `delete from ledger.unsealed_entries where transaction_id = '${deposit}'`,
        'truncate ledger.unsealed_entries',
      ].map((sql) => errorOf(pool.query(sql))),
    );
    expect(refusals).toEqual([
      { code: '42501', message: 'Append-only: UPDATE on ledger.unsealed_entries is refused' },
      {
        code: '42501',
        message: expect.stringMatching(
          /^Entry \d+ awaiting seal leaves the queue only once sealed at the head/,
        ),
      },
      { code: '42501', message: 'Append-only: TRUNCATE on ledger.unsealed_entries is refused' },
    ]);

    await pool.query('select ledger.seal()');
    const { rows } = await pool.query<{ queued: number; sealed: number }>(
      `select (select count(*)::int from ledger.unsealed_entries where transaction_id = $1) as queued,
              (select count(*)::int from ledger.entries where transaction_id = $1) as sealed`,
      [deposit],
    );
    expect(rows).toEqual([{ queued: 0, sealed: 1 }]);
  });

  it('names the change whose queued entry an owner with triggers off deleted before it was sealed', async () => {
    const someone = await createUser(pool);
    const deposit = await addPendingDeposit(pool, someone.id, 95);
    await whileTheHeadIsHeld((writer) =>
      writer.query(`update public.transactions set status = 'complete' where id = $1`, [deposit]),
    );
    const attacker = await pool.connect();
    try {
      await attacker.query('begin');
      await attacker.query('set local session_replication_role = replica');
      await attacker.query('delete from ledger.unsealed_entries where transaction_id = $1', [deposit]);
      const report = await reconcile(attacker);
      expect(report.differences).toContainEqual({
        check: 'transaction differs from its entries',
        entry: null,
        subject: `transaction ${deposit} person:${someone.id}:USD`,
        expected: '-95',
        found: '0',
      });
    } finally {
      await attacker.query('rollback');
      attacker.release();
    }
    await pool.query('select ledger.seal()');
  });
});

describe('append-only', () => {
  it.each([
    ['update ledger.postings set amount = amount * 2 where entry_seq = 1', 'postings'],
    ['delete from ledger.postings where entry_seq = 1', 'postings'],
    ['update ledger.entries set transaction_status = $$x$$ where seq = 1', 'entries'],
    ['delete from ledger.accounts where kind = $$bank$$', 'accounts'],
    ['truncate ledger.postings', 'postings'],
  ])('refuses "%s" to a login that is not the migration owner, superuser or not', async (sql, table) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('set local session authorization supabase_admin');
      const refusal = await errorOf(client.query(sql));
      expect(refusal).toEqual({
        code: '42501',
        message: expect.stringContaining(`ledger.${table} is refused`),
      });
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('grants API roles, admins at aal2 included, no writes at all', async () => {
    const refusal = await errorOf(
      queryAs(pool, signedIn(admin.id), 'update ledger.postings set amount = 1 where entry_seq = 1'),
    );
    expect(refusal.code).toBe('42501');
  });

  it('refuses the reconciliation to anyone but an admin at aal2', async () => {
    expect(
      (await errorOf(queryAs(pool, signedIn(person.id), 'select public.ledger_reconciliation()'))).code,
    ).toBe('42501');
    const { rows } = await queryAs<{ report: Report }>(
      pool,
      signedIn(admin.id),
      'select public.ledger_reconciliation() as report',
    );
    expect(onlyRow(rows).report.differences).toEqual([]);
  });
});

/** The attacker owns the database and disables every trigger; each change is rolled back after the report. */
async function reportAfterTampering(
  tamper: (db: pg.PoolClient) => Promise<unknown>,
  { fromCheckpoint = false } = {},
): Promise<Difference[]> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('set local session_replication_role = replica');
    await tamper(client);
    return (await reconcile(client, { fromCheckpoint })).differences;
  } finally {
    await client.query('rollback');
    client.release();
  }
}

/** The seqs of the entries that moved the person's USD, oldest first. */
async function personEntries(): Promise<[number, number, ...number[]]> {
  const { rows } = await pool.query<{ seq: string }>(
    `select distinct entry_seq as seq from ledger.postings where account = $1 order by 1`,
    [`person:${person.id}:USD`],
  );
  const [first, second, ...rest] = rows.map((row) => Number(row.seq));
  if (first === undefined || second === undefined) throw new Error('the person has fewer than two entries');
  return [first, second, ...rest];
}

describe('tampering as the database owner, triggers disabled', () => {
  it('finds an old amount changed, naming the entry whose contents no longer match its hash', async () => {
    const [deposit] = await personEntries();
    const differences = await reportAfterTampering((db) =>
      // Both legs, so the entry still balances: only the hash gives it away.
      db.query('update ledger.postings set amount = amount * 2 where entry_seq = $1', [deposit]),
    );
    expect(differences).toContainEqual(
      expect.objectContaining({ check: 'chain: hash differs from contents', entry: deposit }),
    );
    expect(differences).toContainEqual(
      expect.objectContaining({ check: 'balance differs', subject: `person ${person.id} USD` }),
    );
  });

  it('finds an entry deleted, naming the gap', async () => {
    const [, buy] = await personEntries();
    const differences = await reportAfterTampering(async (db) => {
      await db.query('delete from ledger.postings where entry_seq = $1', [buy]);
      await db.query('delete from ledger.entries where seq = $1', [buy]);
    });
    expect(differences).toContainEqual({
      check: 'chain: entries missing',
      entry: buy + 1,
      subject: `entries ${buy} to ${buy}`,
      expected: `entry ${buy} after entry ${buy - 1}`,
      found: `entry ${buy + 1}`,
    });
  });

  it('finds two entries swapped, naming both', async () => {
    const [first, second] = await personEntries();
    const differences = await reportAfterTampering(async (db) => {
      const swap = async (from: number, to: number) => {
        await db.query('update ledger.postings set entry_seq = $2 where entry_seq = $1', [from, to]);
        await db.query('update ledger.entries set seq = $2 where seq = $1', [from, to]);
      };
      const aside = 1_000_000_000;
      await swap(first, aside);
      await swap(second, first);
      await swap(aside, second);
    });
    const hashFindings = differences.filter((found) => found.check === 'chain: hash differs from contents');
    expect(hashFindings.map((found) => found.entry)).toEqual([first, second]);
  });

  it('finds a stored balance rewritten, naming the person and their last entry', async () => {
    const entries = await personEntries();
    const differences = await reportAfterTampering((db) =>
      db.query('update public.profiles set balance = balance + 100 where id = $1', [person.id]),
    );
    const rewritten = onlyRow(differences);
    expect(rewritten).toMatchObject({
      check: 'balance differs',
      entry: entries.at(-1),
      subject: `person ${person.id} USD`,
    });
    expect(Number(rewritten.found) - Number(rewritten.expected)).toBe(100);
  });

  it('finds an unbalanced entry even when it is chained and hashed correctly', async () => {
    const differences = await reportAfterTampering(async (db) => {
      // The attacker knows the canonical form: the chain itself stays valid.
      const { rows } = await db.query<{ seq: string }>(
        `select ledger.append_entry(null, null, 'complete', array[$1], array['USD'], array[-100::numeric]) as seq`,
        [`person:${person.id}:USD`],
      );
      return rows;
    });
    const { rows } = await pool.query<{ seq: string }>('select seq from ledger.head');
    const forged = Number(onlyRow(rows).seq) + 1;
    expect(differences.filter((found) => found.check.startsWith('chain'))).toEqual([]);
    expect(differences).toContainEqual({
      check: 'entry: unbalanced',
      entry: forged,
      subject: `entry ${forged} in USD`,
      expected: '0',
      found: '-100',
    });
    expect(differences).toContainEqual(expect.objectContaining({ check: 'balance differs', entry: forged }));
  });
});

describe('checkpoints and proof of liabilities', () => {
  let checkpoint: { id: number; root: string; head_seq: number; people: number };

  async function knownBalances(userId: string): Promise<Record<string, string>> {
    const { rows } = await pool.query<{ currency: string; amount: string }>(
      `select 'USD' as currency, balance::text as amount from public.profiles where id = $1
       union all select cryptocurrency, quantity::text from public.holdings where user_id = $1`,
      [userId],
    );
    return Object.fromEntries(rows.map((row) => [row.currency, row.amount]));
  }

  async function proofOf(userId: string): Promise<unknown> {
    const { rows } = await queryAs<{ proof: unknown }>(
      pool,
      signedIn(userId),
      'select public.my_liability_proof() as proof',
    );
    return onlyRow(rows).proof;
  }

  beforeAll(async () => {
    const { rows } = await queryAs<{ summary: typeof checkpoint }>(
      pool,
      signedIn(admin.id),
      'select public.create_ledger_checkpoint() as summary',
    );
    checkpoint = onlyRow(rows).summary;
  });

  it('publishes the root to anyone, signed in or not', async () => {
    const { rows } = await queryAs<{ latest: typeof checkpoint }>(
      pool,
      anon,
      'select public.latest_ledger_checkpoint() as latest',
    );
    expect(onlyRow(rows).latest).toMatchObject({ id: checkpoint.id, root: checkpoint.root });
    expect(checkpoint.head_seq).toBe((await reconcile()).head.seq);
  });

  it("verifies a person's proof against the published root and the balances their wallet shows", async () => {
    const verdict = await verifyLiabilityProof(await proofOf(person.id), {
      publishedRoot: checkpoint.root,
      balances: await knownBalances(person.id),
    });
    expect(verdict.checks.filter((check) => !check.passed)).toEqual([]);
    expect(verdict.valid).toBe(true);
    expect(verdict.proof?.leaf.person).toBe(person.id);
  });

  it('gives a person their own proof only: one without money in the books has none', async () => {
    expect(await proofOf(admin.id)).toBeNull();
  });

  it('carries the checkpoint in the reconciliation report', async () => {
    expect((await reconcile()).checkpoint).toMatchObject({ id: checkpoint.id, root: checkpoint.root });
  });

  it("fails to verify once the person's leaf is altered after the checkpoint was made", async () => {
    const proof = await proofOf(person.id);
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('set local session_replication_role = replica');
      await client.query(
        `update ledger.checkpoint_leaves set balances[1] = balances[1] + 100
         where checkpoint_id = $1 and person_id = $2`,
        [checkpoint.id, person.id],
      );
      const { rows } = await client.query<{ proof: unknown }>(
        'select ledger.liability_proof($1, $2) as proof',
        [person.id, checkpoint.id],
      );
      const verdict = await verifyLiabilityProof(onlyRow(rows).proof, { publishedRoot: checkpoint.root });
      expect(verdict.valid).toBe(false);
      expect(verdict.checks).toContainEqual(
        expect.objectContaining({
          name: 'Your leaf and its path lead to the checkpoint root',
          passed: false,
        }),
      );
    } finally {
      await client.query('rollback');
      client.release();
    }
    expect((await verifyLiabilityProof(proof, { publishedRoot: checkpoint.root })).valid).toBe(true);
  });

  it("fails to verify against the person's wallet once their balance is altered behind the journal", async () => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('set local session_replication_role = replica');
      // The operator lowers what the books say the house owes the person, then checkpoints.
      await client.query(
        `select ledger.append_entry(null, null, 'complete', array['house:bank:USD', $1], array['USD', 'USD'],
           array[-100::numeric, 100::numeric])`,
        [`person:${person.id}:USD`],
      );
      const { rows: made } = await client.query<{ id: string }>(
        'select ledger.create_checkpoint(null) as id',
      );
      const { rows } = await client.query<{ proof: unknown }>(
        'select ledger.liability_proof($1, $2) as proof',
        [person.id, onlyRow(made).id],
      );
      const verdict = await verifyLiabilityProof(onlyRow(rows).proof, {
        balances: await knownBalances(person.id),
      });
      expect(verdict.valid).toBe(false);
      expect(verdict.checks).toContainEqual(
        expect.objectContaining({ name: 'The balances in your leaf are the ones you know', passed: false }),
      );
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('checks a proof offline with npm run ledger:verify, exiting 1 when it does not hold', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'proof-'));
    try {
      const file = path.join(folder, 'proof.json');
      await writeFile(file, JSON.stringify(await proofOf(person.id)));
      const run = promisify(execFile);
      const { stdout } = await run('npx', [
        'tsx',
        'scripts/ledger-verify.ts',
        file,
        '--root',
        checkpoint.root,
      ]);
      expect(stdout).toContain('The proof is valid');
      const failure = (await run('npx', [
        'tsx',
        'scripts/ledger-verify.ts',
        file,
        '--root',
        '0'.repeat(64),
      ]).then(
        () => ({ code: 0, stdout: '' }),
        (error: unknown) => error,
      )) as { code: number; stdout: string };
      expect(failure.code).toBe(1);
      expect(failure.stdout).toContain('FAIL The checkpoint root is the one published');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('reconciliation from a verified checkpoint', () => {
  let checkpoint: { id: number; head_seq: number };
  let beforeCheckpoint: number;
  let afterCheckpoint: number;

  beforeAll(async () => {
    const { rows: made } = await pool.query<{ id: string }>('select ledger.create_checkpoint(null) as id');
    const { rows } = await pool.query<{ summary: typeof checkpoint }>(
      'select ledger.checkpoint_summary(checkpoints) as summary from ledger.checkpoints where id = $1',
      [onlyRow(made).id],
    );
    checkpoint = onlyRow(rows).summary;
    beforeCheckpoint = (await personEntries())[0];
    const buy = await addBuyRequest(pool, person.id, 10);
    await asAdmin('select public.approve_buy_request($1, gen_random_uuid())', [buy]);
    afterCheckpoint = (await personEntries()).at(-1) ?? 0;
    expect(afterCheckpoint).toBeGreaterThan(checkpoint.head_seq);
  });

  it('records a checkpoint as verified once a reconciliation reaches its head with the chain intact', async () => {
    const verified = () =>
      pool.query('select verified_after_seq from ledger.checkpoint_verifications where checkpoint_id = $1', [
        checkpoint.id,
      ]);
    expect((await reconcile()).differences).toEqual([]);
    expect(onlyRow((await verified()).rows)).toEqual({ verified_after_seq: '0' });
  });

  it('verifies the chain only after the checkpoint, names it and says the entries before are out of scope', async () => {
    const report = await reconcile(pool, { fromCheckpoint: true });
    expect(report.differences).toEqual([]);
    expect(report.verified_from).toBe(checkpoint.head_seq);
    expect(report.trusted_checkpoint).toMatchObject({ id: checkpoint.id, head_seq: checkpoint.head_seq });
    expect(report.entries_verified).toBe(report.head.seq - checkpoint.head_seq);
    expect(report.scope).toContain(`Entries 1 to ${checkpoint.head_seq} are out of scope of this run`);
  });

  it('does not see a tamper before the checkpoint (the run from genesis does), and finds one after it', async () => {
    // The status text is in the hash but moves no money: only the chain's check can see it.
    const rewriteStatus = (seq: number) => (db: pg.PoolClient) =>
      db.query(`update ledger.entries set transaction_status = 'rejected' where seq = $1`, [seq]);
    expect(await reportAfterTampering(rewriteStatus(beforeCheckpoint), { fromCheckpoint: true })).toEqual([]);
    expect(await reportAfterTampering(rewriteStatus(beforeCheckpoint))).toContainEqual(
      expect.objectContaining({ check: 'chain: hash differs from contents', entry: beforeCheckpoint }),
    );
    expect(
      await reportAfterTampering(rewriteStatus(afterCheckpoint), { fromCheckpoint: true }),
    ).toContainEqual(
      expect.objectContaining({ check: 'chain: hash differs from contents', entry: afterCheckpoint }),
    );
  });

  it('finds the entry the checkpoint anchors changed, and verifies no checkpoint over a broken chain', async () => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('set local session_replication_role = replica');
      await client.query(`update ledger.entries set transaction_status = 'rejected' where seq = $1`, [
        checkpoint.head_seq,
      ]);
      const { rows } = await client.query<{ id: string }>('select ledger.create_checkpoint(null) as id');
      const report = await reconcile(client, { fromCheckpoint: true });
      expect(report.differences).toContainEqual(
        expect.objectContaining({
          check: 'checkpoint: head no longer in the chain',
          entry: checkpoint.head_seq,
          subject: `checkpoint ${checkpoint.id}`,
        }),
      );
      const { rows: verified } = await client.query(
        'select 1 from ledger.checkpoint_verifications where checkpoint_id = $1',
        [onlyRow(rows).id],
      );
      expect(verified).toEqual([]);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});

describe('npm run ledger:reconcile', () => {
  const run = promisify(execFile);
  const reconcileCommand = (format: string, ...options: string[]) =>
    run('npx', [
      'tsx',
      'scripts/ledger-reconcile.ts',
      '--db-url',
      database.url,
      '--format',
      format,
      ...options,
    ]);

  it('starts from the latest verified checkpoint with --from-checkpoint, saying so', async () => {
    const { stdout, stderr } = await reconcileCommand('json', '--from-checkpoint');
    const report = JSON.parse(stdout) as Report;
    expect(report.differences).toEqual([]);
    expect(report.trusted_checkpoint?.head_seq).toBe(report.verified_from);
    expect(report.verified_from).toBeGreaterThan(0);
    expect(stderr).toContain('out of scope of this run');
  });

  it('prints a clean report with the chain head and exits 0 on honest books', async () => {
    const { stdout } = await reconcileCommand('json');
    const report = JSON.parse(stdout) as Report;
    expect(report.differences).toEqual([]);
    const { rows } = await pool.query<{ seq: string; hash: string }>(
      `select seq, encode(hash, 'hex') as hash from ledger.head`,
    );
    expect(report.head).toEqual({ seq: Number(onlyRow(rows).seq), hash: onlyRow(rows).hash });
  });

  it('exits non-zero and lists the difference as CSV once a balance is rewritten behind the journal', async () => {
    await pool.query('update public.profiles set balance = balance - 1 where id = $1', [person.id]);
    const failure = (await reconcileCommand('csv').then(
      () => ({ code: 0, stdout: '' }),
      (error: unknown) => error,
    )) as { code: number; stdout: string };
    expect(failure.code).toBe(1);
    const [header, row, ...rest] = failure.stdout.trim().split('\n');
    expect(header).toBe(
      'head_seq,head_hash,checkpoint_id,checkpoint_root,awaiting_seal,check,entry,subject,expected,found',
    );
    expect(row).toContain(`,balance differs,`);
    expect(row).toContain(`person ${person.id} USD`);
    expect(rest).toEqual([]);
  });
});
