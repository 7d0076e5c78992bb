import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addBuyRequest,
  addSellRequest,
  addPendingDeposit,
  addWithdrawRequest,
  anon,
  connect,
  createUser,
  createWithdrawRequest,
  errorOf,
  onlyRow,
  queryAs,
  serviceRole,
  signedIn,
  type CreatedUser,
} from '../support/db';

/** What a signed-in person (or a visitor) might try to gain more than their own rights. */
let pool: pg.Pool;
let person: CreatedUser;
let someoneElse: CreatedUser;
let admin: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  person = await createUser(pool, { deposit: 500 });
  someoneElse = await createUser(pool, { deposit: 500 });
  admin = await createUser(pool, { admin: true });
});

afterAll(async () => {
  await pool.end();
});

async function profileOf(userId: string) {
  const { rows } = await pool.query<{ role: string; balance: string; wallet_code: string }>(
    'select role, balance, wallet_code from public.profiles where id = $1',
    [userId],
  );
  return onlyRow(rows);
}

describe('a person cannot raise their own role', () => {
  it.each([
    ['role', `'admin'`],
    ['balance', '1000000'],
    ['wallet_code', `'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq'`],
  ])('an update of profiles.%s is refused and changes nothing', async (column, value) => {
    const before = await profileOf(person.id);
    const error = await errorOf(
      queryAs(pool, signedIn(person.id), `update public.profiles set ${column} = ${value} where id = $1`, [
        person.id,
      ]),
    );
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for table profiles' });
    expect(await profileOf(person.id)).toEqual(before);
  });

  it('sign-up metadata asking for admin still makes a user', async () => {
    const hopeful = await createUser(pool, {
      metadata: { role: 'admin', full_name: 'Hopeful' },
      appMetadata: { role: 'admin' },
    });
    expect((await profileOf(hopeful.id)).role).toBe('user');
  });
});

describe('a person cannot write money', () => {
  it.each([
    ['a completed deposit', `'deposit', 100, 'complete'`],
    ['a pending deposit', `'deposit', 100, 'pending'`],
    ['a sell', `'sell', 100, 'complete'`],
  ])('inserting %s for themselves is refused', async (_what, values) => {
    const error = await errorOf(
      queryAs(
        pool,
        signedIn(person.id),
        `insert into public.transactions (user_id, type, amount, status) values ($1, ${values})`,
        [person.id],
      ),
    );
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for table transactions' });
    expect(Number((await profileOf(person.id)).balance)).toBe(500);
  });

  it('an admin cannot write a deposit straight to the ledger either (create_deposit, with its key, is the way)', async () => {
    const error = await errorOf(
      queryAs(
        pool,
        signedIn(admin.id),
        `insert into public.transactions (user_id, type, amount, status) values ($1, 'deposit', 100, 'complete')`,
        [person.id],
      ),
    );
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for table transactions' });
  });
});

describe('buy requests', () => {
  it('cannot be filed for someone else', async () => {
    const error = await errorOf(
      queryAs(
        pool,
        signedIn(person.id),
        `insert into public.buy_requests (user_id, cryptocurrency, amount) values ($1, 'bitcoin', 50)`,
        [someoneElse.id],
      ),
    );
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for table buy_requests' });
  });

  it.each(['approved', 'rejected'])('cannot be filed already %s', async (status) => {
    const error = await errorOf(
      queryAs(
        pool,
        signedIn(person.id),
        `insert into public.buy_requests (user_id, cryptocurrency, amount, status) values ($1, 'bitcoin', 50, $2)`,
        [person.id, status],
      ),
    );
    expect(error.code).toBe('42501');
  });

  it('cannot be given a decision date or decider', async () => {
    const error = await errorOf(
      queryAs(
        pool,
        signedIn(person.id),
        `insert into public.buy_requests (user_id, cryptocurrency, amount, decided_by) values ($1, 'bitcoin', 50, $1)`,
        [person.id],
      ),
    );
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for table buy_requests' });
  });
});

describe('admin RPCs refuse people who are not admins', () => {
  /** Each RPC with the record it decides and that record's state, which a refused call must leave as it was. */
  const calls: [string, string, () => Promise<string>, string][] = [
    [
      'approve_buy_request',
      'select public.approve_buy_request($1, gen_random_uuid())',
      () => addBuyRequest(pool, person.id, 50),
      'select status from public.buy_requests where id = $1',
    ],
    [
      'reject_buy_request',
      'select public.reject_buy_request($1, gen_random_uuid())',
      () => addBuyRequest(pool, person.id, 50),
      'select status from public.buy_requests where id = $1',
    ],
    [
      'approve_sell_request',
      'select public.approve_sell_request($1, gen_random_uuid())',
      () => addSellRequest(pool, person.id),
      'select status from public.sell_requests where id = $1',
    ],
    [
      'reject_sell_request',
      'select public.reject_sell_request($1, gen_random_uuid())',
      () => addSellRequest(pool, person.id),
      'select status from public.sell_requests where id = $1',
    ],
    [
      'set_withdraw_request_status',
      `select public.set_withdraw_request_status($1, 'approved', gen_random_uuid())`,
      () => addWithdrawRequest(pool, person.id, 50),
      'select status from public.withdraw_requests where id = $1',
    ],
    [
      'set_transaction_status',
      `select public.set_transaction_status($1, 'complete', gen_random_uuid())`,
      () => addPendingDeposit(pool, person.id, 50),
      'select status from public.transactions where id = $1',
    ],
  ];

  it.each(calls)(
    '%s by a signed-in user is refused and decides nothing',
    async (_name, sql, addRecord, read) => {
      const recordId = await addRecord();
      const before = await pool.query(read, [recordId]);
      expect(before.rows).toEqual([{ status: 'pending' }]);
      const error = await errorOf(queryAs(pool, signedIn(person.id), sql, [recordId]));
      expect(error).toMatchObject({ code: '42501', message: 'Only admins can do this' });
      const after = await pool.query(read, [recordId]);
      expect(after.rows).toEqual([{ status: 'pending' }]);
    },
  );

  it.each(calls)('%s by a visitor is refused before it runs', async (name, sql) => {
    const error = await errorOf(queryAs(pool, anon, sql, ['00000000-0000-4000-8000-000000000000']));
    expect(error).toMatchObject({ code: '42501', message: `permission denied for function ${name}` });
  });
});

describe('create_withdraw_request acts only for the caller the database authenticated', () => {
  const spoofingRefusal = 'A withdraw request can only be made by the signed-in person for themselves';

  it.each([
    ['another signed-in user', () => signedIn(someoneElse.id), spoofingRefusal],
    ['an admin', () => signedIn(admin.id), spoofingRefusal],
    ["the service role without the person's session", () => serviceRole, spoofingRefusal],
    ['a visitor', () => anon, 'permission denied for function create_withdraw_request'],
  ])('refuses %s naming the person in a spoofed user_id', async (_who, actorOf, message) => {
    const countRequests = async () =>
      (
        await pool.query('select count(*)::int as count from public.withdraw_requests where user_id = $1', [
          person.id,
        ])
      ).rows;
    const before = await countRequests();
    const error = await errorOf(
      createWithdrawRequest(pool, actorOf(), { amount: 20, claimedUserId: person.id }),
    );
    expect(error).toMatchObject({ code: '42501', message });
    expect(await countRequests()).toEqual(before);
  });

  it('is refused to a signed-in person calling it directly: only the withdrawals function seals and stores details', async () => {
    const error = await errorOf(
      queryAs(
        pool,
        signedIn(person.id),
        `select public.create_withdraw_request(gen_random_uuid(), $1, null, 20, 'bank', 'unsealed', 1::smallint,
           'digest', gen_random_uuid())`,
        [person.id],
      ),
    );
    expect(error).toMatchObject({
      code: '42501',
      message: 'permission denied for function create_withdraw_request',
    });
  });

  it('creates the request of the signed-in person and names them as the actor in the audit log', async () => {
    const claimant = await createUser(pool, { deposit: 100 });
    const { rows } = await createWithdrawRequest(pool, signedIn(claimant.id), { amount: 20 });
    const created = onlyRow(rows);
    expect(created.user_id).toBe(claimant.id);
    const audit = await pool.query(
      `select actor_id, details ->> 'user_id' as user_id from public.audit_log
       where action = 'withdraw_request.create' and target_id = $1`,
      [created.id],
    );
    expect(audit.rows).toEqual([{ actor_id: claimant.id, user_id: claimant.id }]);
  });
});

describe('private helpers are not part of the API', () => {
  it('a person cannot write the audit log through its helper', async () => {
    const error = await errorOf(
      queryAs(pool, signedIn(person.id), `select private.write_audit('forged', 'profiles', null, '{}')`),
    );
    expect(error.code).toBe('42501');
  });
});
