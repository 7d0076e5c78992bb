import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addBuyRequest,
  addSellRequest,
  addDeposit,
  anon,
  connect,
  createUser,
  errorOf,
  queryAs,
  serviceRole,
  signedIn,
  walletOf,
  type Actor,
  type CreatedUser,
} from '../support/db';

/**
 * Settled is final: the ledger entry of an approved buy, sell or withdraw request is never taken back out of
 * `complete` (that refunds money while the request stays approved: a double payout), a decided request
 * never changes, and a deposit changes only while the person's available balance stays covered.
 * Each attack is tried by every role and leaves the balance as it was.
 */
let pool: pg.Pool;
let admin: CreatedUser;
let owner: CreatedUser;
let otherUser: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await createUser(pool, { admin: true });
  otherUser = await createUser(pool);
});

afterAll(async () => {
  await pool.end();
});

async function approvedBuy(amount: number) {
  owner = await createUser(pool, { deposit: 1000 });
  const requestId = await addBuyRequest(pool, owner.id, amount);
  await queryAs(pool, signedIn(admin.id), 'select public.approve_buy_request($1, gen_random_uuid())', [
    requestId,
  ]);
  const { rows } = await pool.query<{ id: string }>(
    'select id from public.transactions where buy_request_id = $1',
    [requestId],
  );
  return { requestId, entryId: rows[0]?.id ?? '' };
}

async function approvedWithdrawal(amount: number) {
  owner = await createUser(pool, { deposit: 1000 });
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.withdraw_requests (user_id, amount, withdraw_method, encrypted_data)
     values ($1, $2, 'bank', 'iv.data.key') returning id`,
    [owner.id, amount],
  );
  const requestId = rows[0]?.id ?? '';
  await queryAs(
    pool,
    signedIn(admin.id),
    `select public.set_withdraw_request_status($1, 'approved', gen_random_uuid())`,
    [requestId],
  );
  const entry = await pool.query<{ id: string }>(
    'select id from public.transactions where withdraw_request_id = $1',
    [requestId],
  );
  return { requestId, entryId: entry.rows[0]?.id ?? '' };
}

/** A sale of 0.006 BTC at 50,000 USD, approved: 300 USD added to the person's 1,000. */
async function approvedSell() {
  owner = await createUser(pool, { deposit: 1000 });
  const requestId = await addSellRequest(pool, owner.id, 0.006);
  await queryAs(pool, signedIn(admin.id), 'select public.approve_sell_request($1, gen_random_uuid())', [
    requestId,
  ]);
  const { rows } = await pool.query<{ id: string }>(
    'select id from public.transactions where sell_request_id = $1',
    [requestId],
  );
  return { requestId, entryId: rows[0]?.id ?? '' };
}

/** Who tries, and what they read: anon and people are refused the call, an admin reads `adminRefusal`. */
const roles = (adminRefusal: string): [string, () => Actor, string][] => [
  ['anon', () => anon, 'permission denied for function set_transaction_status'],
  ['the owner', () => signedIn(owner.id), 'Only admins can do this'],
  ['another user', () => signedIn(otherUser.id), 'Only admins can do this'],
  ['an admin', () => signedIn(admin.id), adminRefusal],
];

describe.each([
  ['an approved buy request', 'buy', () => approvedBuy(300), 700],
  ['an approved withdrawal', 'withdraw', () => approvedWithdrawal(300), 700],
  ['an approved sell request', 'sell', approvedSell, 1299.99],
])('the ledger entry of %s', (_name, type, settle, balance) => {
  // An admin is told what the entry is and why it stays.
  it.each(roles(`This ${type} records an approved request: its status is final`))(
    'cannot be reverted out of complete by %s: refused, balance unchanged',
    async (_role, actor, refusal) => {
      const { entryId } = await settle();
      const before = await walletOf(pool, owner.id);

      for (const status of ['pending', 'processing']) {
        const error = await errorOf(
          queryAs(pool, actor(), 'select public.set_transaction_status($1, $2, gen_random_uuid())', [
            entryId,
            status,
          ]),
        );
        expect(error.message).toBe(refusal);
      }

      expect(await walletOf(pool, owner.id)).toEqual(before);
      expect(before.balance).toBe(balance);
    },
  );

  it.each([
    ['anon', () => anon],
    ['the owner', () => signedIn(owner.id)],
    ['an admin', () => signedIn(admin.id)],
    ['the service role', () => serviceRole],
  ])('cannot be updated through the API by %s', async (_role, actor) => {
    const { entryId } = await settle();
    const error = await errorOf(
      queryAs(pool, actor(), `update public.transactions set status = 'pending' where id = $1`, [entryId]),
    );
    expect(error.message).toBe('permission denied for table transactions');
    expect((await walletOf(pool, owner.id)).balance).toBe(balance);
  });

  it('cannot be reverted even by the database operator: the trigger refuses every writer', async () => {
    const { entryId } = await settle();
    const error = await errorOf(
      pool.query(`update public.transactions set status = 'pending' where id = $1`, [entryId]),
    );
    expect(error.message).toBe('Transactions of approved requests are final');
    expect(await walletOf(pool, owner.id)).toEqual({
      balance,
      reserved: 0,
      available: balance,
      ledger: balance,
    });
  });
});

describe('a decided request', () => {
  it('cannot be set back to pending, even by the database operator', async () => {
    const buy = await approvedBuy(100);
    const withdrawal = await approvedWithdrawal(100);
    for (const table of ['buy_requests', 'withdraw_requests']) {
      const requestId = table === 'buy_requests' ? buy.requestId : withdrawal.requestId;
      const error = await errorOf(
        pool.query(`update public.${table} set status = 'pending', decided_at = null where id = $1`, [
          requestId,
        ]),
      );
      expect(error.message).toBe('Request has already been decided');
    }
  });

  it('is not decided again by an admin: a rejected withdrawal cannot be approved', async () => {
    owner = await createUser(pool, { deposit: 500 });
    const { rows } = await pool.query<{ id: string }>(
      `insert into public.withdraw_requests (user_id, amount, withdraw_method, encrypted_data)
       values ($1, 200, 'card', 'iv.data.key') returning id`,
      [owner.id],
    );
    const requestId = rows[0]?.id ?? '';
    const decide = (status: string) =>
      queryAs(
        pool,
        signedIn(admin.id),
        'select public.set_withdraw_request_status($1, $2, gen_random_uuid())',
        [requestId, status],
      );
    await decide('rejected');
    expect((await errorOf(decide('approved'))).message).toBe('Request has already been decided');
    expect(await walletOf(pool, owner.id)).toEqual({
      balance: 500,
      reserved: 0,
      available: 500,
      ledger: 500,
    });
  });

  it('outlives its person: closing the account keeps the request and its entry', async () => {
    const { requestId, entryId } = await approvedBuy(100);
    // The person spends the rest and sells the coins, so their account can be closed.
    await pool.query(
      `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price)
       select user_id, 'sell', 100, 'complete', cryptocurrency, quantity, price from public.transactions where id = $1`,
      [entryId],
    );
    await pool.query(
      `insert into public.transactions (user_id, type, amount, status) values ($1, 'withdraw', 1000, 'complete')`,
      [owner.id],
    );
    await pool.query('delete from auth.users where id = $1', [owner.id]);
    const { rows } = await pool.query(
      `select (select status from public.buy_requests where id = $1) as request,
              (select status from public.transactions where id = $2) as entry`,
      [requestId, entryId],
    );
    expect(rows).toEqual([{ request: 'approved', entry: 'complete' }]);
  });
});

describe('a deposit', () => {
  it('stays changeable: an admin moves an unspent deposit out of complete and back', async () => {
    owner = await createUser(pool);
    const depositId = await addDeposit(pool, owner.id, 250);
    const setStatus = (status: string) =>
      queryAs(pool, signedIn(admin.id), 'select public.set_transaction_status($1, $2, gen_random_uuid())', [
        depositId,
        status,
      ]);
    await setStatus('pending');
    expect((await walletOf(pool, owner.id)).balance).toBe(0);
    await setStatus('complete');
    expect((await walletOf(pool, owner.id)).balance).toBe(250);
  });

  it.each(roles('Insufficient balance'))(
    'once spent, cannot be moved out of complete by %s: refused, balance unchanged',
    async (_role, actor, refusal) => {
      owner = await createUser(pool);
      const depositId = await addDeposit(pool, owner.id, 500);
      const requestId = await addBuyRequest(pool, owner.id, 400);
      await queryAs(pool, signedIn(admin.id), 'select public.approve_buy_request($1, gen_random_uuid())', [
        requestId,
      ]);

      const error = await errorOf(
        queryAs(pool, actor(), `select public.set_transaction_status($1, 'pending', gen_random_uuid())`, [
          depositId,
        ]),
      );
      expect(error.message).toBe(refusal);
      expect(await walletOf(pool, owner.id)).toEqual({
        balance: 100,
        reserved: 0,
        available: 100,
        ledger: 100,
      });
    },
  );

  it('reserved by an open withdrawal, cannot be moved out of complete by an admin', async () => {
    owner = await createUser(pool);
    const depositId = await addDeposit(pool, owner.id, 500);
    await pool.query(
      `insert into public.withdraw_requests (user_id, amount, withdraw_method, encrypted_data)
       values ($1, 450, 'wallet', 'iv.data.key')`,
      [owner.id],
    );
    const error = await errorOf(
      queryAs(
        pool,
        signedIn(admin.id),
        `select public.set_transaction_status($1, 'pending', gen_random_uuid())`,
        [depositId],
      ),
    );
    expect(error.message).toBe('Insufficient balance');
    expect(await walletOf(pool, owner.id)).toEqual({
      balance: 500,
      reserved: 450,
      available: 50,
      ledger: 500,
    });
  });
});
