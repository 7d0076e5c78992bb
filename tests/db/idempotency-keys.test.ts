import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addBuyRequest,
  anon,
  connect,
  createUser,
  errorOf,
  onlyRow,
  queryAs,
  serviceRole,
  signedIn,
  walletOf,
  type CreatedUser,
} from '../support/db';

/**
 * Every request that moves money carries the key the browser made for one form submission: the same key
 * again answers what the first call answered and creates nothing; the key with other content is refused.
 */
let pool: pg.Pool;
let admin: CreatedUser;
let person: CreatedUser;
let otherUser: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await createUser(pool, { admin: true });
  person = await createUser(pool, { deposit: 1000 });
  otherUser = await createUser(pool);
});

afterAll(async () => {
  await pool.end();
});

const reusedKeyRefusal = 'This request was already submitted with different details';

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(`select count(*)::int as count from ${sql}`, params);
  return rows[0]?.count ?? 0;
}

describe('create_buy_request', () => {
  const buy = (actorId: string, amount: number, key: string, coin = 'bitcoin') =>
    queryAs<{ id: string; amount: string; status: string }>(
      pool,
      signedIn(actorId),
      'select id, amount::text, status from public.create_buy_request($1, $2, $3)',
      [coin, amount, key],
    );

  it('retried with the same key creates one request and returns it again (same id)', async () => {
    const key = randomUUID();
    const first = onlyRow((await buy(person.id, 25, key)).rows);
    const retry = onlyRow((await buy(person.id, 25, key)).rows);
    expect(retry).toEqual(first);
    expect(await count('public.buy_requests where user_id = $1 and amount = 25', [person.id])).toBe(1);
  });

  it('sent ten times at once with one key creates one request', async () => {
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, () => buy(person.id, 26, key)));
    expect(new Set(answers.map((answer) => onlyRow(answer.rows).id)).size).toBe(1);
    expect(await count('public.buy_requests where user_id = $1 and amount = 26', [person.id])).toBe(1);
  });

  it.each([
    ['another amount', 40, 41, 'bitcoin'],
    ['another coin', 42, 42, 'ethereum'],
  ])(
    'with the same key but %s is refused and creates nothing',
    async (_what, amount, changedAmount, coin) => {
      const key = randomUUID();
      await buy(person.id, amount, key);
      expect((await errorOf(buy(person.id, changedAmount, key, coin))).message).toBe(reusedKeyRefusal);
      expect(
        await count('public.buy_requests where user_id = $1 and amount in ($2, $3)', [
          person.id,
          amount,
          changedAmount,
        ]),
      ).toBe(1);
    },
  );

  it('keeps keys per person: another person using the same key gets their own request', async () => {
    const key = randomUUID();
    const otherPerson = await createUser(pool, { deposit: 100 });
    const mine = onlyRow((await buy(person.id, 29, key)).rows);
    const theirs = onlyRow((await buy(otherPerson.id, 29, key)).rows);
    expect(theirs.id).not.toBe(mine.id);
  });

  it.each([
    ['anon', anon, 'permission denied for function create_buy_request'],
    ['the service role', serviceRole, 'permission denied for function create_buy_request'],
  ])('is refused for %s', async (_who, actor, message) => {
    const error = await errorOf(
      queryAs(pool, actor, `select public.create_buy_request('bitcoin', 30, $1)`, [randomUUID()]),
    );
    expect(error.message).toBe(message);
  });

  it('without a key is refused', async () => {
    const error = await errorOf(
      queryAs(pool, signedIn(person.id), `select public.create_buy_request('bitcoin', 30, null)`),
    );
    expect(error.message).toBe('Idempotency key is required');
  });

  it('a refused call leaves its key free, so the corrected retry goes through', async () => {
    const key = randomUUID();
    expect((await errorOf(buy(person.id, 0, key))).message).toBe('Amount must be greater than 0');
    expect(onlyRow((await buy(person.id, 31, key)).rows).amount).toBe('31');
  });
});

describe('create_deposit', () => {
  const deposit = (actorId: string, userId: string, amount: number, key: string) =>
    queryAs<{ id: string }>(pool, signedIn(actorId), 'select id from public.create_deposit($1, $2, $3)', [
      userId,
      amount,
      key,
    ]);

  it('retried by the admin with the same key makes one pending deposit (same id)', async () => {
    const target = await createUser(pool);
    const key = randomUUID();
    const first = onlyRow((await deposit(admin.id, target.id, 300, key)).rows);
    const retry = onlyRow((await deposit(admin.id, target.id, 300, key)).rows);
    expect(retry.id).toBe(first.id);
    expect(await count(`public.transactions where user_id = $1 and type = 'deposit'`, [target.id])).toBe(1);
    expect((await errorOf(deposit(admin.id, target.id, 301, key))).message).toBe(reusedKeyRefusal);
  });

  it.each([
    ['the person themselves', () => person.id],
    ['another user', () => otherUser.id],
  ])('is refused for %s', async (_who, actorId) => {
    const error = await errorOf(deposit(actorId(), person.id, 300, randomUUID()));
    expect(error.message).toBe('Only admins can do this');
  });
});

describe('approvals with a key', () => {
  it('a retried approval answers success again and takes the money once', async () => {
    const buyer = await createUser(pool, { deposit: 100 });
    const requestId = await addBuyRequest(pool, buyer.id, 60);
    const key = randomUUID();
    const approve = () =>
      queryAs(pool, signedIn(admin.id), 'select public.approve_buy_request($1, $2)', [requestId, key]);
    await approve();
    await approve();
    expect((await walletOf(pool, buyer.id)).balance).toBe(40);
    const reject = await errorOf(
      queryAs(pool, signedIn(admin.id), 'select public.reject_buy_request($1, $2)', [requestId, key]),
    );
    expect(reject.message).toBe(reusedKeyRefusal);
  });

  it('a retried deposit completion moves the money once', async () => {
    const target = await createUser(pool);
    const { rows } = await queryAs<{ id: string }>(
      pool,
      signedIn(admin.id),
      'select id from public.create_deposit($1, 80, $2)',
      [target.id, randomUUID()],
    );
    const key = randomUUID();
    const complete = () =>
      queryAs(pool, signedIn(admin.id), `select public.set_transaction_status($1, 'complete', $2)`, [
        onlyRow(rows).id,
        key,
      ]);
    await complete();
    await complete();
    expect((await walletOf(pool, target.id)).balance).toBe(80);
  });

  it('a retried withdrawal approval answers success again; another key is told it was already decided', async () => {
    const owner = await createUser(pool, { deposit: 100 });
    const inserted = await pool.query<{ id: string }>(
      `insert into public.withdraw_requests (user_id, amount, withdraw_method, encrypted_data)
       values ($1, 70, 'bank', 'iv.data.key') returning id`,
      [owner.id],
    );
    const requestId = onlyRow(inserted.rows).id;
    const key = randomUUID();
    const approve = (withKey: boolean) =>
      withKey
        ? queryAs(pool, signedIn(admin.id), `select public.set_withdraw_request_status($1, 'approved', $2)`, [
            requestId,
            key,
          ])
        : queryAs(
            pool,
            signedIn(admin.id),
            `select public.set_withdraw_request_status($1, 'approved', gen_random_uuid())`,
            [requestId],
          );
    await approve(true);
    await approve(true);
    expect((await errorOf(approve(false))).message).toBe('Request has already been decided');
    expect((await walletOf(pool, owner.id)).balance).toBe(30);
  });

  it.each([
    ['anon', () => anon, 'permission denied for function approve_buy_request'],
    ['the owner', () => signedIn(person.id), 'Only admins can do this'],
  ])('is refused for %s', async (_who, actor, message) => {
    const requestId = await addBuyRequest(pool, person.id, 10);
    const error = await errorOf(
      queryAs(pool, actor(), 'select public.approve_buy_request($1, $2)', [requestId, randomUUID()]),
    );
    expect(error.message).toBe(message);
  });
});
