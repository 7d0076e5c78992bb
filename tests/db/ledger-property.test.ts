import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addCurrentPrice,
  connect,
  createUser,
  createWithdrawRequest,
  onlyRow,
  queryAs,
  signedIn,
  type CreatedUser,
} from '../support/db';
import { createLedgerDatabase } from '../support/ledger-database';

/**
 * Whatever mix of money steps people and admins take at once — deposits completed and moved back, buys, sells
 * and withdrawals asked for, approved and rejected — the journal stays equal to the balances and the holdings,
 * every entry balances and the chain verifies: the reconciliation finds nothing after every round. A fixed seed
 * makes a failing run repeatable.
 */
const people = 12;
const rounds = 5;
const stepsPerRound = 500;
const concurrency = 12;
const coins = ['bitcoin', 'ethereum'] as const;

let database: Awaited<ReturnType<typeof createLedgerDatabase>>;
let pool: pg.Pool;
let admin: CreatedUser;
let persons: CreatedUser[];

/** mulberry32: small, seedable, good enough to pick steps. */
function randomFrom(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = randomFrom(33);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const amount = () => (10 + Math.floor(random() * 49_000) / 100).toFixed(2);

const asAdmin = (sql: string, params: unknown[]) => queryAs(pool, signedIn(admin.id), sql, params);

async function idsOf(sql: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(sql);
  return rows.map((row) => row.id);
}

/** One random step; business refusals (Insufficient balance, already decided, ...) are expected outcomes. */
async function step(): Promise<void> {
  const person = pick(persons);
  const asPerson = (sql: string, params: unknown[]) => queryAs(pool, signedIn(person.id), sql, params);
  const choice = random();
  if (choice < 0.15) {
    await asAdmin('select public.create_deposit($1, $2, gen_random_uuid())', [person.id, amount()]);
  } else if (choice < 0.3) {
    const deposit = pick(await idsOf(`select id from public.transactions where type = 'deposit' limit 50`));
    await asAdmin('select public.set_transaction_status($1, $2, gen_random_uuid())', [
      deposit,
      pick(['complete', 'complete', 'pending', 'processing']),
    ]);
  } else if (choice < 0.45) {
    await asPerson('select public.create_buy_request($1, $2, gen_random_uuid())', [pick(coins), amount()]);
  } else if (choice < 0.6) {
    const buy = pick(await idsOf(`select id from public.buy_requests where status = 'pending' limit 20`));
    const decision = random() < 0.75 ? 'approve' : 'reject';
    if (buy) await asAdmin(`select public.${decision}_buy_request($1, gen_random_uuid())`, [buy]);
  } else if (choice < 0.7) {
    const { rows } = await pool.query<{ cryptocurrency: string; available: string }>(
      `select cryptocurrency, (quantity / 3)::numeric(30, 18)::text as available from public.holdings
       where user_id = $1 and quantity > 0`,
      [person.id],
    );
    const holding = rows[0];
    if (holding) {
      await asPerson('select public.create_sell_request($1, $2, gen_random_uuid())', [
        holding.cryptocurrency,
        holding.available,
      ]);
    }
  } else if (choice < 0.8) {
    const sell = pick(await idsOf(`select id from public.sell_requests where status = 'pending' limit 20`));
    const decision = random() < 0.75 ? 'approve' : 'reject';
    if (sell) await asAdmin(`select public.${decision}_sell_request($1, gen_random_uuid())`, [sell]);
  } else if (choice < 0.9) {
    await createWithdrawRequest(pool, signedIn(person.id), { amount: amount() });
  } else {
    const withdrawal = pick(
      await idsOf(`select id from public.withdraw_requests where status = 'pending' limit 20`),
    );
    if (withdrawal) {
      await asAdmin('select public.set_withdraw_request_status($1, $2, gen_random_uuid())', [
        withdrawal,
        pick(['approved', 'approved', 'rejected', 'processing']),
      ]);
    }
  }
}

interface Outcomes {
  done: number;
  refused: Map<string, number>;
  unexpected: string[];
}

async function runRound(outcomes: Outcomes): Promise<void> {
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < stepsPerRound) {
        started += 1;
        try {
          await step();
          outcomes.done += 1;
        } catch (error) {
          const { code, message } = error as { code?: string; message: string };
          // P0001: the RPCs' own refusals, said in words; anything else (a deadlock, a constraint) is a bug.
          if (code === 'P0001') outcomes.refused.set(message, (outcomes.refused.get(message) ?? 0) + 1);
          else outcomes.unexpected.push(`${code}: ${message}`);
        }
      }
    }),
  );
}

beforeAll(async () => {
  database = await createLedgerDatabase(inject('databaseUrl'));
  pool = connect(database.url, concurrency + 4);
  admin = await createUser(pool, { admin: true });
  persons = [];
  for (let index = 0; index < people; index += 1) persons.push(await createUser(pool, { deposit: 2000 }));
  // Wide limits: the steps are about the books, not the per-request limits.
  await pool.query('update public.transaction_limits set min_amount = 0, max_amount = 0');
  await pool.query('update private.security_holds set changed_at = changed_at - interval $$30 days$$');
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

describe('random concurrent money steps', () => {
  it(`keep journal = balances = holdings and a verifiable chain over ${rounds} × ${stepsPerRound} steps`, async () => {
    const outcomes: Outcomes = { done: 0, refused: new Map(), unexpected: [] };
    type Reconciliation = { report: { differences: unknown[]; awaiting_seal: number } };
    for (let round = 0; round < rounds; round += 1) {
      for (const coin of coins) await addCurrentPrice(pool, coin, (1000 + random() * 100).toFixed(2));
      // A reconciliation while the steps run holds the chain's head, so steps that write meanwhile queue
      // their entries: the books must still agree, sealed and awaiting entries together. How much they
      // overlap is up to the scheduler; tests/db/ledger.test.ts holds the head to make entries wait.
      const [, during] = await Promise.all([
        runRound(outcomes),
        pool.query<Reconciliation>('select ledger.reconcile() as report'),
      ]);
      expect({ round, during: onlyRow(during.rows).report.differences }).toEqual({ round, during: [] });
      const { rows } = await pool.query<Reconciliation>('select ledger.reconcile() as report');
      expect({ round, after: onlyRow(rows).report }).toMatchObject({
        round,
        after: { differences: [], awaiting_seal: 0 },
      });
    }
    expect(outcomes.unexpected).toEqual([]);
    // The mix really moved money: many steps succeeded and every kind of movement is in the journal.
    expect(outcomes.done).toBeGreaterThan((rounds * stepsPerRound) / 2);
    const { rows } = await pool.query<{ kind: string; entries: number }>(
      `select transaction_type || ' ' || case when corrects is null then 'first' else 'correction' end as kind,
              count(*)::int as entries
       from ledger.entries group by 1 order by 1`,
    );
    const kinds = Object.fromEntries(rows.map((row) => [row.kind, row.entries]));
    for (const kind of ['deposit first', 'deposit correction', 'buy first', 'sell first', 'withdraw first']) {
      expect(kinds[kind], kind).toBeGreaterThan(10);
    }
  });

  it('leaves a chain a fresh checkpoint covers, with totals equal to the balances and holdings', async () => {
    const { rows } = await pool.query<{ id: string }>('select ledger.create_checkpoint(null) as id');
    const { rows: compared } = await pool.query<{ journal: string[]; stored: string[] }>(
      `select checkpoints.totals::text[] as journal,
              array(select coalesce(sum(amount), 0)::text from (
                select 'USD' as currency, balance as amount from public.profiles
                union all select cryptocurrency, quantity from public.holdings
              ) as stored right join unnest(checkpoints.currencies) with ordinality as currencies (currency, position)
                using (currency) group by position order by position) as stored
       from ledger.checkpoints where id = $1`,
      [onlyRow(rows).id],
    );
    const { journal, stored } = onlyRow(compared);
    expect(journal.map(Number)).toEqual(stored.map(Number));
  });
});
