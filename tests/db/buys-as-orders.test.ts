import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  addCurrentPrice,
  addVerifiedFactor,
  anon,
  connect,
  createUser,
  createWithdrawRequest,
  errorOf,
  onlyRow,
  queryAs,
  race,
  signedIn,
  signedInWithPasswordOnly,
  walletOf,
  type Actor,
  type CreatedUser,
} from '../support/db';

/**
 * Buys behave like orders: a pending buy reserves its USD the moment it is submitted (as an open withdrawal
 * does), so the available balance drops at once and no second request can count on the same dollars; the
 * reservation is released when an admin rejects the buy (with a reason the person reads), when it expires, or
 * when its owner cancels it. The owner may cancel any pending buy, sell or withdraw request; nobody else can.
 * Money never goes negative, never moves twice, and a retry with the same key changes nothing again.
 */
const racers = 10;

let pool: pg.Pool;
let admin: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'), racers * 2 + 2);
  admin = await createUser(pool, { admin: true });
});

afterAll(async () => {
  await pool.end();
});

let coin: string;
beforeEach(async () => {
  coin = `ordered${randomUUID().slice(0, 8)}`;
  await addCurrentPrice(pool, coin, 100);
});

const buy = (person: CreatedUser, amount: number | string, key: string = randomUUID(), actor?: Actor) =>
  queryAs<{ id: string; status: string }>(
    pool,
    actor ?? signedIn(person.id),
    'select id, status from public.create_buy_request($1, $2, $3)',
    [coin, amount, key],
  ).then((result) => onlyRow(result.rows));

const cancel = (kind: string, requestId: string, actor: Actor, key: string = randomUUID()) =>
  queryAs(pool, actor, 'select public.cancel_request($1, $2, $3)', [kind, requestId, key]);

const asAdmin = (sql: string, params: unknown[]) => queryAs(pool, signedIn(admin.id), sql, params);

async function buyRow(id: string) {
  const { rows } = await queryAs<{
    status: string;
    rejection_reason: string | null;
    fill_price: string | null;
  }>(
    pool,
    signedIn(await ownerOf(id)),
    'select status, rejection_reason, fill_price::text, trim_scale(quantity)::text as quantity from public.buy_requests_with_fill where id = $1',
    [id],
  );
  return onlyRow(rows);
}

async function ownerOf(buyRequestId: string) {
  const { rows } = await pool.query<{ user_id: string }>(
    'select user_id from public.buy_requests where id = $1',
    [buyRequestId],
  );
  return onlyRow(rows).user_id;
}

describe('a buy reserves its USD at submission', () => {
  it('refuses a 50 USD buy on a 0.00 balance and stores nothing', async () => {
    const person = await createUser(pool);
    expect(await errorOf(buy(person, 50))).toEqual({
      code: 'P0001',
      message: 'Insufficient balance (including all pending requests)',
    });
    const { rows } = await pool.query('select id from public.buy_requests where user_id = $1', [person.id]);
    expect(rows).toEqual([]);
  });

  it('lowers the available balance at once, and refuses a 95 USD buy on 100 USD with 21 USD already pending', async () => {
    const person = await createUser(pool, { deposit: 100 });
    await buy(person, 21);
    expect(await walletOf(pool, person.id)).toMatchObject({ balance: 100, reserved: 21, available: 79 });
    expect((await errorOf(buy(person, 95))).message).toBe(
      'Insufficient balance (including all pending requests)',
    );
    expect(await walletOf(pool, person.id)).toMatchObject({ balance: 100, reserved: 21, available: 79 });
  });

  it('counts pending buys against a withdrawal, and open withdrawals against a buy', async () => {
    const person = await createUser(pool, { deposit: 100 });
    await buy(person, 60);
    const refused = await errorOf(createWithdrawRequest(pool, signedIn(person.id), { amount: 50 }));
    expect(refused.message).toBe('Insufficient balance (including all withdraw requests)');
    await createWithdrawRequest(pool, signedIn(person.id), { amount: 40 });
    expect((await errorOf(buy(person, 10))).message).toBe(
      'Insufficient balance (including all pending requests)',
    );
    expect(await walletOf(pool, person.id)).toMatchObject({ balance: 100, reserved: 100, available: 0 });
  });

  it('a retry with the same key returns the same request and reserves it once', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const key = randomUUID();
    const first = await buy(person, 30, key);
    const again = await buy(person, 30, key);
    expect(again.id).toBe(first.id);
    expect(await walletOf(pool, person.id)).toMatchObject({ reserved: 30, available: 70 });
  });

  it(`${racers} buys of 30 USD submitted at once on 100 USD: three are taken, the rest refused`, async () => {
    const person = await createUser(pool, { deposit: 100 });
    const settled = await race(Array.from({ length: racers }, () => () => buy(person, 30)));
    expect(settled.succeeded).toBe(3);
    expect(new Set(settled.failures)).toEqual(
      new Set(['Insufficient balance (including all pending requests)']),
    );
    expect(await walletOf(pool, person.id)).toMatchObject({ balance: 100, reserved: 90, available: 10 });
  });

  it('the same key sent by racing retries makes one request', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const key = randomUUID();
    const settled = await race(Array.from({ length: racers }, () => () => buy(person, 30, key)));
    expect(settled.succeeded).toBe(racers);
    const { rows } = await pool.query('select id from public.buy_requests where user_id = $1', [person.id]);
    expect(rows).toHaveLength(1);
    expect(await walletOf(pool, person.id)).toMatchObject({ reserved: 30, available: 70 });
  });
});

describe('approving a reserved buy', () => {
  it('shows the admin what the approval takes from, and pays from the reservation without going negative', async () => {
    const person = await createUser(pool, { deposit: 15 });
    const request = await buy(person, 10);
    const { rows } = await asAdmin(
      'select amount::text, available::text from public.buy_requests_with_user where id = $1',
      [request.id],
    );
    expect(onlyRow(rows)).toEqual({ amount: '10', available: '15.00' });
    await asAdmin('select public.approve_buy_request($1, gen_random_uuid())', [request.id]);
    expect(await walletOf(pool, person.id)).toEqual({ balance: 5, reserved: 0, available: 5, ledger: 5 });
    expect(await buyRow(request.id)).toEqual({
      status: 'approved',
      rejection_reason: null,
      fill_price: '100',
      quantity: '0.1',
    });
  });
});

describe('what releases a reservation', () => {
  it('a rejection, with the reason the admin gives, which the person reads and is notified of', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const request = await buy(person, 40);
    await asAdmin('select public.reject_buy_request($1, gen_random_uuid(), $2)', [
      request.id,
      '  Limit too far from the market  ',
    ]);
    expect(await walletOf(pool, person.id)).toMatchObject({ reserved: 0, available: 100 });
    expect(await buyRow(request.id)).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Limit too far from the market',
    });
    const { rows } = await pool.query<{ body: string }>(
      `select body from public.notifications where user_id = $1 and kind = 'buy_request.rejected'`,
      [person.id],
    );
    expect(rows.map((row) => row.body)).toEqual([
      `Your request to buy $40 of ${coin[0]?.toUpperCase()}${coin.slice(1)} was rejected. Reason: Limit too far from the market`,
    ]);
  });

  it('refuses a reason of more than 500 characters and keeps the request pending', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const request = await buy(person, 40);
    const refused = await errorOf(
      asAdmin('select public.reject_buy_request($1, gen_random_uuid(), $2)', [request.id, 'x'.repeat(501)]),
    );
    expect(refused.message).toBe('The reason can be at most 500 characters');
    expect((await buyRow(request.id)).status).toBe('pending');
  });

  it('the expiry: an expired buy reserves nothing', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const request = await buy(person, 70);
    await pool.query(
      `update public.buy_requests set expires_at = now() - interval '1 minute' where id = $1`,
      [request.id],
    );
    expect(await walletOf(pool, person.id)).toMatchObject({ reserved: 0, available: 100 });
    await buy(person, 70);
  });

  it('the owner cancelling it, once: a retry answers success and changes nothing again', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const request = await buy(person, 70);
    const key = randomUUID();
    await cancel('buy', request.id, signedIn(person.id), key);
    await cancel('buy', request.id, signedIn(person.id), key);
    expect(await walletOf(pool, person.id)).toEqual({
      balance: 100,
      reserved: 0,
      available: 100,
      ledger: 100,
    });
    expect((await buyRow(request.id)).status).toBe('cancelled');
    const refused = await errorOf(
      asAdmin('select public.approve_buy_request($1, gen_random_uuid())', [request.id]),
    );
    expect(refused.message).toBe('Request has already been decided');
    expect((await errorOf(cancel('buy', request.id, signedIn(person.id)))).message).toBe(
      'Only a pending request can be cancelled',
    );
  });

  it('a cancellation racing an approval: one of them wins, money moves at most once', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const request = await buy(person, 50);
    const settled = await race([
      () => cancel('buy', request.id, signedIn(person.id)),
      () => asAdmin('select public.approve_buy_request($1, gen_random_uuid())', [request.id]),
    ]);
    expect(settled.succeeded).toBe(1);
    const wallet = await walletOf(pool, person.id);
    const { status } = await buyRow(request.id);
    expect(wallet).toEqual(
      status === 'approved'
        ? { balance: 50, reserved: 0, available: 50, ledger: 50 }
        : { balance: 100, reserved: 0, available: 100, ledger: 100 },
    );
  });
});

describe('cancelling sell and withdraw requests', () => {
  it('frees the coins a pending sell reserved', async () => {
    const person = await createUser(pool, { deposit: 100 });
    await pool.query(
      `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price)
       values ($1, 'buy', 10, 'complete', $2, 1, 10)`,
      [person.id, coin],
    );
    const { rows } = await queryAs<{ id: string }>(
      pool,
      signedIn(person.id),
      'select id from public.create_sell_request($1, 1, gen_random_uuid())',
      [coin],
    );
    const sellId = onlyRow(rows).id;
    await cancel('sell', sellId, signedIn(person.id));
    const held = await pool.query<{ available: string }>(
      'select available::text from public.holdings where user_id = $1 and cryptocurrency = $2',
      [person.id, coin],
    );
    expect(onlyRow(held.rows).available).toBe('1');
  });

  it('frees the USD a pending withdrawal reserved, and an admin cannot pay it afterwards', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const { rows } = await createWithdrawRequest(pool, signedIn(person.id), { amount: 80 });
    const withdrawalId = onlyRow(rows).id;
    await cancel('withdraw', withdrawalId, signedIn(person.id));
    expect(await walletOf(pool, person.id)).toMatchObject({ reserved: 0, available: 100 });
    const refused = await errorOf(
      asAdmin(`select public.set_withdraw_request_status($1, 'approved', gen_random_uuid())`, [withdrawalId]),
    );
    expect(refused.message).toBe('Request has already been decided');
  });

  it('a withdrawal an admin marked processing is no longer the owner’s to cancel', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const { rows } = await createWithdrawRequest(pool, signedIn(person.id), { amount: 80 });
    const withdrawalId = onlyRow(rows).id;
    await asAdmin(`select public.set_withdraw_request_status($1, 'processing', gen_random_uuid())`, [
      withdrawalId,
    ]);
    expect((await errorOf(cancel('withdraw', withdrawalId, signedIn(person.id)))).message).toBe(
      'Only a pending request can be cancelled',
    );
    expect(await walletOf(pool, person.id)).toMatchObject({ reserved: 80 });
  });

  it('a rejected withdrawal carries the reason to the person', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const { rows } = await createWithdrawRequest(pool, signedIn(person.id), { amount: 80 });
    const withdrawalId = onlyRow(rows).id;
    await asAdmin(
      `select public.set_withdraw_request_status($1, 'rejected', gen_random_uuid(), 'Name mismatch')`,
      [withdrawalId],
    );
    const own = await queryAs<{ status: string; rejection_reason: string }>(
      pool,
      signedIn(person.id),
      'select status, rejection_reason from public.withdraw_requests where id = $1',
      [withdrawalId],
    );
    expect(onlyRow(own.rows)).toEqual({ status: 'rejected', rejection_reason: 'Name mismatch' });
  });
});

describe('who may cancel', () => {
  let owner: CreatedUser;
  let requestId: string;
  beforeEach(async () => {
    owner = await createUser(pool, { deposit: 100 });
    requestId = (await buy(owner, 20)).id;
  });

  const refusals: [string, () => Actor][] = [
    ['anon', () => anon],
    ['another user', () => signedIn(admin.id === owner.id ? '' : randomUUID())],
    ['an admin at aal1', () => signedInWithPasswordOnly(admin.id)],
    ['an admin at aal2', () => signedIn(admin.id)],
  ];
  it.each(refusals)('%s is refused (42501) and the request stays pending', async (_who, actor) => {
    expect((await errorOf(cancel('buy', requestId, actor()))).code).toBe('42501');
    expect((await buyRow(requestId)).status).toBe('pending');
  });

  it('the owner with a verified factor only at aal2', async () => {
    await addVerifiedFactor(pool, owner.id);
    const refused = await errorOf(cancel('buy', requestId, signedInWithPasswordOnly(owner.id)));
    expect(refused).toEqual({ code: '42501', message: 'Enter a code from your authenticator app to cancel' });
    await cancel('buy', requestId, signedIn(owner.id));
    expect((await buyRow(requestId)).status).toBe('cancelled');
  });

  it('not while the account is locked ("this wasn\'t me"): the money gate', async () => {
    await pool.query('insert into private.withdrawal_locks (user_id) values ($1)', [owner.id]);
    expect(await errorOf(cancel('buy', requestId, signedIn(owner.id)))).toEqual({
      code: 'P0001',
      message:
        'Requests cannot be cancelled while your account is locked because you reported a change you did not ' +
        'make. Contact support to unlock it.',
    });
    expect((await buyRow(requestId)).status).toBe('pending');
  });
});
