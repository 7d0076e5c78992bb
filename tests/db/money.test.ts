import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  addBuyRequest,
  addCurrentPrice,
  addDeposit,
  connect,
  createWithdrawRequest,
  createUser,
  errorOf,
  queryAs,
  race,
  signedIn,
  walletOf,
  type CreatedUser,
} from '../support/db';

/**
 * Money moves only through the RPCs, each one database transaction under the person's lock: many
 * admins racing for one balance approve exactly what it covers, and the balance the trigger keeps
 * always equals the ledger.
 */
const racers = 50;

let pool: pg.Pool;
let admin: CreatedUser;

beforeAll(async () => {
  // One connection per racer, so all 50 calls really are in flight at once.
  pool = connect(inject('databaseUrl'), racers + 2);
  admin = await createUser(pool, { admin: true });
});

afterAll(async () => {
  await pool.end();
});

const approve = (requestId: string) => () =>
  queryAs(pool, signedIn(admin.id), 'select public.approve_buy_request($1, gen_random_uuid())', [requestId]);
/** A buy submitted by the person (it reserves its amount), with a current price for its approval. */
const submitBuy = (userId: string, amount: number) => async () => {
  await addCurrentPrice(pool, 'bitcoin', 50_000);
  const { rows } = await queryAs<{ id: string }>(
    pool,
    signedIn(userId),
    `select id from public.create_buy_request('bitcoin', $1, gen_random_uuid())`,
    [amount],
  );
  return rows[0]?.id ?? '';
};
const requestWithdrawal = (userId: string, amount: number) => () =>
  createWithdrawRequest(pool, signedIn(userId), { amount });
const setWithdrawStatus = (requestId: string, status: string) => () =>
  queryAs(pool, signedIn(admin.id), 'select public.set_withdraw_request_status($1, $2, gen_random_uuid())', [
    requestId,
    status,
  ]);
const setTransactionStatus = (transactionId: string, status: string) =>
  queryAs(pool, signedIn(admin.id), 'select public.set_transaction_status($1, $2, gen_random_uuid())', [
    transactionId,
    status,
  ]);

async function countRows(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(`select count(*)::int as count from ${sql}`, params);
  return rows[0]?.count ?? 0;
}

describe('approving buy requests concurrently', () => {
  it('takes exactly what the balance covers: 10 of 50 submitted at once, and approving those 10 at once', async () => {
    const buyer = await createUser(pool, { deposit: 1000 });
    const submitted = await Promise.allSettled(
      Array.from({ length: racers }, () => submitBuy(buyer.id, 100)()),
    );
    const requestIds = submitted.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    expect(requestIds).toHaveLength(10);
    expect(await walletOf(pool, buyer.id)).toEqual({
      balance: 1000,
      reserved: 1000,
      available: 0,
      ledger: 1000,
    });

    const { succeeded, failures } = await race(requestIds.map(approve));

    expect(succeeded).toBe(10);
    expect(failures).toEqual([]);
    expect(await walletOf(pool, buyer.id)).toEqual({ balance: 0, reserved: 0, available: 0, ledger: 0 });
    expect(await countRows(`public.transactions where user_id = $1 and type = 'buy'`, [buyer.id])).toBe(10);
    expect(
      await countRows(`public.buy_requests where user_id = $1 and status = 'approved'`, [buyer.id]),
    ).toBe(10);
  });

  it('refuses to approve a buy the balance no longer covers beside the other open requests', async () => {
    // Written as the operator (no reservation check): two buys of 100 over a balance of 100.
    const buyer = await createUser(pool, { deposit: 100 });
    const first = await addBuyRequest(pool, buyer.id, 100);
    await addBuyRequest(pool, buyer.id, 100);
    expect((await errorOf(approve(first)())).message).toBe('Insufficient balance');
    expect(await walletOf(pool, buyer.id)).toEqual({
      balance: 100,
      reserved: 200,
      available: -100,
      ledger: 100,
    });
  });

  it('records a complete buy of the coin, linked to its request, in the same step', async () => {
    const buyer = await createUser(pool, { deposit: 300 });
    const requestId = await addBuyRequest(pool, buyer.id, 120.5);
    await approve(requestId)();
    const { rows } = await pool.query(
      `select type, amount::text, status, cryptocurrency from public.transactions where buy_request_id = $1`,
      [requestId],
    );
    expect(rows).toEqual([{ type: 'buy', amount: '120.5', status: 'complete', cryptocurrency: 'bitcoin' }]);
    expect(await walletOf(pool, buyer.id)).toEqual({
      balance: 179.5,
      reserved: 0,
      available: 179.5,
      ledger: 179.5,
    });
  });
});

describe('withdraw requests competing for one balance', () => {
  it('creates exactly what the balance covers: 10 of 50, the other 40 fail with the withdrawal text', async () => {
    const person = await createUser(pool, { deposit: 1000 });

    const { succeeded, failures } = await race(
      Array.from({ length: racers }, () => requestWithdrawal(person.id, 100)),
    );

    expect(succeeded).toBe(10);
    expect(failures).toEqual(
      Array.from({ length: 40 }, () => 'Insufficient balance (including all withdraw requests)'),
    );
    expect(await walletOf(pool, person.id)).toEqual({
      balance: 1000,
      reserved: 1000,
      available: 0,
      ledger: 1000,
    });
  });

  it('shares the balance with buys: of 25 buys and 25 withdrawals submitted at once only 10 in all succeed', async () => {
    const person = await createUser(pool, { deposit: 1000 });

    const { succeeded, failures } = await race([
      ...Array.from({ length: 25 }, () => submitBuy(person.id, 100)),
      ...Array.from({ length: 25 }, () => requestWithdrawal(person.id, 100)),
    ]);

    expect(succeeded).toBe(10);
    expect(failures).toHaveLength(40);
    const refusals = [
      'Insufficient balance (including all pending requests)',
      'Insufficient balance (including all withdraw requests)',
    ];
    expect(failures.filter((message) => !refusals.includes(message))).toEqual([]);
    const wallet = await walletOf(pool, person.id);
    expect(wallet.available).toBe(0);
    expect(wallet.balance).toBe(wallet.ledger);
  });

  it('pays out each request once when admins approve the same requests concurrently', async () => {
    const person = await createUser(pool, { deposit: 1000 });
    const created = await Promise.all(Array.from({ length: 10 }, () => requestWithdrawal(person.id, 100)()));
    const requestIds = created.map((result) => (result.rows[0] as { id: string }).id);

    const { succeeded, failures } = await race([
      ...requestIds.map((id) => setWithdrawStatus(id, 'approved')),
      ...requestIds.map((id) => setWithdrawStatus(id, 'approved')),
    ]);

    expect(succeeded).toBe(10);
    expect(failures).toEqual(Array.from({ length: 10 }, () => 'Request has already been decided'));
    expect(await walletOf(pool, person.id)).toEqual({ balance: 0, reserved: 0, available: 0, ledger: 0 });
    expect(await countRows(`public.transactions where user_id = $1 and type = 'withdraw'`, [person.id])).toBe(
      10,
    );
  });
});

describe('decided requests stay decided', () => {
  it.each([
    ['approved', 'approve_buy_request'],
    ['approved', 'reject_buy_request'],
    ['rejected', 'approve_buy_request'],
    ['rejected', 'reject_buy_request'],
  ])('a buy request already %s cannot be decided again by %s', async (first, second) => {
    const buyer = await createUser(pool, { deposit: 500 });
    const requestId = await addBuyRequest(pool, buyer.id, 100);
    const decide = first === 'approved' ? 'approve_buy_request' : 'reject_buy_request';
    await queryAs(pool, signedIn(admin.id), `select public.${decide}($1, gen_random_uuid())`, [requestId]);
    const before = await walletOf(pool, buyer.id);

    const error = await errorOf(
      queryAs(pool, signedIn(admin.id), `select public.${second}($1, gen_random_uuid())`, [requestId]),
    );

    expect(error).toMatchObject({ code: 'P0001', message: 'Request has already been decided' });
    expect(await walletOf(pool, buyer.id)).toEqual(before);
    const { rows } = await pool.query('select status from public.buy_requests where id = $1', [requestId]);
    expect(rows).toEqual([{ status: first }]);
  });

  it.each([
    ['approved', 'rejected'],
    ['approved', 'pending'],
    ['rejected', 'approved'],
    ['rejected', 'processing'],
  ])('a withdraw request already %s cannot be set to %s', async (first, second) => {
    const person = await createUser(pool, { deposit: 500 });
    const created = await requestWithdrawal(person.id, 200)();
    const requestId = (created.rows[0] as { id: string }).id;
    await setWithdrawStatus(requestId, first)();
    const before = await walletOf(pool, person.id);

    const error = await errorOf(setWithdrawStatus(requestId, second)());

    expect(error).toMatchObject({ code: 'P0001', message: 'Request has already been decided' });
    expect(await walletOf(pool, person.id)).toEqual(before);
  });

  it('an open withdraw request may carry a status type and stays reserved until decided', async () => {
    const person = await createUser(pool, { deposit: 500 });
    const created = await requestWithdrawal(person.id, 200)();
    const requestId = (created.rows[0] as { id: string }).id;

    await setWithdrawStatus(requestId, 'processing')();
    expect(await walletOf(pool, person.id)).toEqual({
      balance: 500,
      reserved: 200,
      available: 300,
      ledger: 500,
    });

    await setWithdrawStatus(requestId, 'rejected')();
    expect(await walletOf(pool, person.id)).toEqual({
      balance: 500,
      reserved: 0,
      available: 500,
      ledger: 500,
    });
  });
});

describe('transaction status changes', () => {
  it('completing a pending deposit adds it to the balance; setting it back takes it away', async () => {
    const person = await createUser(pool);
    const { rows } = await queryAs<{ id: string }>(
      pool,
      signedIn(admin.id),
      'select id from public.create_deposit($1, 250, gen_random_uuid())',
      [person.id],
    );
    const depositId = rows[0]?.id ?? '';
    expect((await walletOf(pool, person.id)).balance).toBe(0);

    await setTransactionStatus(depositId, 'complete');
    expect(await walletOf(pool, person.id)).toEqual({
      balance: 250,
      reserved: 0,
      available: 250,
      ledger: 250,
    });

    await setTransactionStatus(depositId, 'processing');
    expect(await walletOf(pool, person.id)).toEqual({ balance: 0, reserved: 0, available: 0, ledger: 0 });
  });

  it('is refused with "Insufficient balance" when the money is already spent', async () => {
    const person = await createUser(pool);
    const depositId = await addDeposit(pool, person.id, 100);
    await approve(await addBuyRequest(pool, person.id, 100))();

    const error = await errorOf(setTransactionStatus(depositId, 'pending'));

    expect(error).toMatchObject({ code: 'P0001', message: 'Insufficient balance' });
    expect(await walletOf(pool, person.id)).toEqual({ balance: 0, reserved: 0, available: 0, ledger: 0 });
  });

  it('is refused when the money is reserved by an open withdraw request', async () => {
    const person = await createUser(pool);
    const depositId = await addDeposit(pool, person.id, 100);
    await requestWithdrawal(person.id, 100)();

    const error = await errorOf(setTransactionStatus(depositId, 'cancelled'));

    expect(error).toMatchObject({ code: 'P0001', message: 'Insufficient balance' });
    expect(await walletOf(pool, person.id)).toEqual({
      balance: 100,
      reserved: 100,
      available: 0,
      ledger: 100,
    });
  });
});

describe('audit log', () => {
  it('records every admin decision with the admin as actor', async () => {
    const buyer = await createUser(pool, { deposit: 500 });
    const approved = await addBuyRequest(pool, buyer.id, 100);
    const rejected = await addBuyRequest(pool, buyer.id, 100);
    await approve(approved)();
    await queryAs(pool, signedIn(admin.id), 'select public.reject_buy_request($1, gen_random_uuid())', [
      rejected,
    ]);

    const { rows } = await pool.query(
      `select action, actor_id from public.audit_log where target_id = any($1::uuid[]) order by action`,
      [[approved, rejected]],
    );
    expect(rows).toEqual([
      { action: 'buy_request.approve', actor_id: admin.id },
      { action: 'buy_request.reject', actor_id: admin.id },
    ]);
  });

  it('records a withdraw request made by the withdrawals function with the person as actor', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const created = await requestWithdrawal(person.id, 40)();
    const requestId = (created.rows[0] as { id: string }).id;
    const { rows } = await pool.query('select action, actor_id from public.audit_log where target_id = $1', [
      requestId,
    ]);
    expect(rows).toEqual([{ action: 'withdraw_request.create', actor_id: person.id }]);
  });

  it('records deposits, status types and limit changes', async () => {
    const person = await createUser(pool);
    const actions = await actAs(
      pool,
      signedIn(admin.id),
      async (db) => {
        await db.query('select public.create_deposit($1, 40, gen_random_uuid())', [person.id]);
        await db.query(`insert into public.status_types (name) values ('audited ' || $1::text)`, [person.id]);
        await db.query(`delete from public.status_types where name = 'audited ' || $1::text`, [person.id]);
        await db.query('update public.transaction_limits set min_amount = 5, max_amount = 5000');
        const { rows } = await db.query<{ action: string }>(
          `select action from public.audit_log where actor_id = $1 and at = now() order by action`,
          [admin.id],
        );
        return rows.map((row) => row.action);
      },
      // The limits are shared by every test file: look, then leave them as they were.
      { rollback: true },
    );
    expect(actions).toEqual([
      'deposit.create',
      'status_type.delete',
      'status_type.insert',
      'transaction_limits.update',
    ]);
  });
});
