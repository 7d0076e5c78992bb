import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addBuyRequest,
  addDeposit,
  addPendingDeposit,
  addWithdrawRequest,
  anon,
  connect,
  createUser,
  errorOf,
  queryAs,
  serviceRole,
  signedIn,
  type CreatedUser,
} from '../support/db';

/**
 * public.delete_user closes an account, never the books: refused while the person holds money, coins or
 * open requests; otherwise their sign-in and personal data go, and every ledger entry and request stays under
 * their pseudonymous id, so every balance and report stays true.
 */
let pool: pg.Pool;
let admin: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await createUser(pool, { admin: true });
});

afterAll(async () => {
  await pool.end();
});

async function traceOf(userId: string) {
  const { rows } = await pool.query<{ users: number; profiles: number; requests: number; audits: number }>(
    `select
       (select count(*)::int from auth.users where id = $1) as users,
       (select count(*)::int from public.profiles where id = $1 and closed_at is null) as profiles,
       (select count(*)::int from public.buy_requests where user_id = $1) as requests,
       (select count(*)::int from public.audit_log where action = 'user.delete' and target_id = $1) as audits`,
    [userId],
  );
  return rows[0];
}

/** What every report adds up: the ledger by type and status, the requests, the balances, the admin list. */
async function reportTotals() {
  const { rows } = await pool.query(
    `select
       (select jsonb_object_agg(type || '/' || status, total) from (
          select type, status, sum(amount)::text as total from public.transactions group by 1, 2) as ledger) as ledger,
       (select count(*)::int from public.transactions) as entries,
       (select count(*)::int from public.buy_requests) as buy_requests,
       (select count(*)::int from public.sell_requests) as sell_requests,
       (select count(*)::int from public.withdraw_requests) as withdraw_requests,
       (select sum(balance)::text from public.profiles) as balances,
       (select sum(amount)::text from public.transactions_with_user) as transaction_list,
       (select coalesce(sum(quantity), 0)::text from public.holdings) as coins`,
  );
  return rows[0];
}

const closeAccount = (actor = signedIn(admin.id), userId: string) =>
  queryAs(pool, actor, 'select public.delete_user($1) as deleted', [userId]);

/** A person who used the account and emptied it: deposited, bought and sold coins, withdrew the rest. */
async function personWhoEmptiedTheirAccount(): Promise<CreatedUser> {
  const person = await createUser(pool, { fullName: 'Leaving Person', twoFactor: true });
  await addDeposit(pool, person.id, 100);
  await pool.query(
    `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price)
     values ($1, 'buy', 20, 'complete', 'bitcoin', 0.0004, 50000), ($1, 'sell', 20, 'complete', 'bitcoin', 0.0004, 50000)`,
    [person.id],
  );
  const rejected = await addBuyRequest(pool, person.id, 30);
  await queryAs(pool, signedIn(admin.id), 'select public.reject_buy_request($1, gen_random_uuid())', [
    rejected,
  ]);
  const withdrawal = await addWithdrawRequest(pool, person.id, 100);
  await queryAs(
    pool,
    signedIn(admin.id),
    `select public.set_withdraw_request_status($1, 'approved', gen_random_uuid())`,
    [withdrawal],
  );
  await pool.query(`insert into public.watchlist (user_id, coin_id) values ($1, 'bitcoin')`, [person.id]);
  return person;
}

describe('delete_user', () => {
  it('deleting a person keeps the totals of every report unchanged, under a pseudonymous id', async () => {
    const person = await personWhoEmptiedTheirAccount();
    const before = await reportTotals();

    const { rows } = await closeAccount(signedIn(admin.id), person.id);
    expect(rows).toEqual([{ deleted: person.id }]);

    expect(await reportTotals()).toEqual(before);
    const { rows: kept } = await pool.query(
      `select (select count(*)::int from public.transactions where user_id = $1) as entries,
              (select count(*)::int from public.buy_requests where user_id = $1) as buy_requests,
              (select count(*)::int from public.withdraw_requests where user_id = $1) as withdraw_requests`,
      [person.id],
    );
    expect(kept).toEqual([{ entries: 4, buy_requests: 1, withdraw_requests: 1 }]);
    // The profile stays as a closed row without name or e-mail; the sign-in and all personal data are gone.
    const { rows: profile } = await pool.query(
      `select email, full_name, closed_at is not null as closed, balance::text from public.profiles where id = $1`,
      [person.id],
    );
    expect(profile).toEqual([{ email: null, full_name: null, closed: true, balance: '0.00' }]);
    const { rows: personal } = await pool.query(
      `select (select count(*)::int from auth.users where id = $1) as users,
              (select count(*)::int from auth.mfa_factors where user_id = $1) as factors,
              (select count(*)::int from auth.sessions where user_id = $1) as sessions,
              (select count(*)::int from public.notifications where user_id = $1) as notifications,
              (select count(*)::int from public.watchlist where user_id = $1) as watchlist,
              (select count(*)::int from public.users_with_balance where id = $1) as listed`,
      [person.id],
    );
    expect(personal).toEqual([
      { users: 0, factors: 0, sessions: 0, notifications: 0, watchlist: 0, listed: 0 },
    ]);
    const audit = await pool.query(
      `select actor_id, details from public.audit_log where action = 'user.delete' and target_id = $1`,
      [person.id],
    );
    expect(audit.rows).toEqual([{ actor_id: admin.id, details: { role: 'user' } }]);
  });

  it('keeps the books even when the profile itself is deleted by the operator: the ledger refuses to go with it', async () => {
    const person = await createUser(pool, { deposit: 10 });
    const error = await errorOf(pool.query('delete from public.profiles where id = $1', [person.id]));
    expect(error.code).toBe('23503');
    expect(await traceOf(person.id)).toMatchObject({ users: 1, profiles: 1 });
  });

  it.each([
    [
      'money',
      async (person: CreatedUser) => addDeposit(pool, person.id, 0.01),
      'This person still holds 0.01 USD: pay it out before closing the account',
    ],
    [
      'coins',
      async (person: CreatedUser) =>
        pool.query(
          `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price)
           values ($1, 'sell', 1, 'complete', 'bitcoin', 0.00001, 100000),
                  ($1, 'buy', 1, 'complete', 'bitcoin', 0.00002, 50000)`,
          [person.id],
        ),
      'This person still holds coins: they must be sold before closing the account',
    ],
    [
      'an open request',
      async (person: CreatedUser) => addPendingDeposit(pool, person.id, 10),
      'This person has open requests or pending transactions: decide them before closing the account',
    ],
  ])('is refused while the person holds %s, and nothing changes', async (_what, give, message) => {
    const person = await createUser(pool);
    await give(person);
    const before = await reportTotals();
    expect(await errorOf(closeAccount(signedIn(admin.id), person.id))).toEqual({ code: 'P0001', message });
    expect(await traceOf(person.id)).toEqual({ users: 1, profiles: 1, requests: 0, audits: 0 });
    expect(await reportTotals()).toEqual(before);
  });

  it.each([
    ['a visitor', () => anon, 'permission denied for function delete_user'],
    ['the service role', () => serviceRole, 'permission denied for function delete_user'],
    ['a signed-in user, even for themselves', (id: string) => signedIn(id), 'Only admins can do this'],
  ])('is refused for %s, and the person keeps everything', async (_who, actorOf, message) => {
    const person = await createUser(pool);
    const error = await errorOf(closeAccount(actorOf(person.id), person.id));
    expect(error).toMatchObject({ code: '42501', message });
    expect(await traceOf(person.id)).toEqual({ users: 1, profiles: 1, requests: 0, audits: 0 });
  });

  it("refuses the admin's own account, an unknown id and an account already closed", async () => {
    expect(await errorOf(closeAccount(signedIn(admin.id), admin.id))).toMatchObject({
      code: 'P0001',
      message: 'You cannot delete your own account',
    });
    expect(
      await errorOf(closeAccount(signedIn(admin.id), '00000000-0000-4000-8000-000000000000')),
    ).toMatchObject({ code: 'P0002', message: 'User not found' });
    const closed = await createUser(pool);
    await closeAccount(signedIn(admin.id), closed.id);
    expect(await errorOf(closeAccount(signedIn(admin.id), closed.id))).toMatchObject({
      code: 'P0002',
      message: 'User not found',
    });
    expect(await traceOf(admin.id)).toMatchObject({ users: 1, profiles: 1, audits: 0 });
  });

  it('writes no audit entry when the deletion fails: both happen or neither', async () => {
    const person = await createUser(pool);
    // The database operator makes this one deletion fail after the audit entry was written.
    const client = await pool.connect();
    try {
      await client.query(`create or replace function public.test_refuse_delete() returns trigger language plpgsql
        as $$ begin raise exception 'deletion failed'; end; $$`);
      await client.query(`create trigger test_refuse_delete before delete on auth.users
        for each row when (old.id = '${person.id}') execute function public.test_refuse_delete()`);
      const error = await errorOf(closeAccount(signedIn(admin.id), person.id));
      expect(error.message).toBe('deletion failed');
      expect(await traceOf(person.id)).toEqual({ users: 1, profiles: 1, requests: 0, audits: 0 });
    } finally {
      await client.query('drop trigger if exists test_refuse_delete on auth.users');
      await client.query('drop function if exists public.test_refuse_delete()');
      client.release();
    }
  });
});
