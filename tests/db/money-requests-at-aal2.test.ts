import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addCurrentPrice,
  addSession,
  connect,
  createUser,
  errorOf,
  moneyStateOf,
  queryAs,
  signedIn,
  signedInWithPasswordOnly,
  type CreatedUser,
} from '../support/db';

/**
 * A stolen password without the second factor cannot trade: a person with a verified factor asks to buy, sell
 * (and withdraw: withdrawal-step-up.test.ts) only from an aal2 session, and at aal1 reads their balance only,
 * not their notifications nor where they are signed in.
 */
let pool: pg.Pool;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

/** A person with a verified factor, $100 and 0.01 bitcoin. */
async function factorHolder(): Promise<CreatedUser> {
  const person = await createUser(pool, { twoFactor: true, deposit: 600 });
  await addCurrentPrice(pool, 'bitcoin', 50_000);
  await pool.query(
    `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price)
     values ($1, 'buy', 500, 'complete', 'bitcoin', 0.01, 50000)`,
    [person.id],
  );
  return person;
}

const buy = `select public.create_buy_request('bitcoin', 100, gen_random_uuid())`;
const sell = `select public.create_sell_request('bitcoin', 0.01, gen_random_uuid())`;

describe('aal1 buy and sell by a factor holder', () => {
  it.each([
    ['buy', buy],
    ['sell', sell],
  ])('a stolen password cannot %s: refused, and nothing changes', async (verb, call) => {
    const person = await factorHolder();
    const before = await moneyStateOf(pool, person.id);
    expect(await errorOf(queryAs(pool, signedInWithPasswordOnly(person.id), call))).toEqual({
      code: '42501',
      message: `Enter a code from your authenticator app to ${verb}`,
    });
    expect(await moneyStateOf(pool, person.id)).toEqual(before);

    // The same request from the session that verified the code goes through.
    expect(await queryAs(pool, signedIn(person.id), call)).toMatchObject({ rowCount: 1 });
  });

  it('leaves a person without a factor free to trade at aal1 (there is no code to ask)', async () => {
    const person = await createUser(pool, { deposit: 500 });
    await addCurrentPrice(pool, 'bitcoin', 50_000);
    expect(await queryAs(pool, signedInWithPasswordOnly(person.id), buy)).toMatchObject({ rowCount: 1 });
  });
});

describe('at aal1 a factor holder sees their balance only', () => {
  async function whatTheySee(person: CreatedUser, aal: 'aal1' | 'aal2') {
    const actor = { role: 'authenticated' as const, userId: person.id, aal };
    const [profile, notifications, marked, sessions] = await Promise.all([
      queryAs(pool, actor, 'select balance::text from public.profiles where id = $1', [person.id]),
      queryAs(pool, actor, 'select title from public.notifications'),
      queryAs(pool, actor, 'update public.notifications set read_at = now() returning id', [], {
        rollback: true,
      }),
      queryAs(pool, actor, 'select id from public.list_my_sessions()'),
    ]);
    return {
      balance: profile.rows[0]?.balance,
      notifications: notifications.rowCount,
      marked: marked.rowCount,
      sessions: sessions.rowCount,
    };
  }

  it('reads no notifications (amounts, sign-in addresses), marks none read, and lists no sessions', async () => {
    const person = await createUser(pool, { twoFactor: true, deposit: 500 });
    await pool.query(
      `select private.notify($1, 'security.sign_in', 'New sign-in', 'Signed in from 203.0.113.9.')`,
      [person.id],
    );
    await addSession(pool, { role: 'authenticated', userId: person.id });

    expect(await whatTheySee(person, 'aal1')).toEqual({
      balance: '500.00',
      notifications: 0,
      marked: 0,
      sessions: 0,
    });
    const { rows } = await pool.query<{ count: number }>(
      'select count(*)::int as count from public.notifications where user_id = $1',
      [person.id],
    );
    expect(rows[0]?.count).toBeGreaterThan(0);
    expect(await whatTheySee(person, 'aal2')).toEqual({
      balance: '500.00',
      notifications: rows[0]?.count,
      marked: rows[0]?.count,
      sessions: 1,
    });
  });
});
