import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  addPriceSnapshot,
  connect,
  createUser,
  errorOf,
  queryAs,
  signedIn,
  walletOf,
  type CreatedUser,
} from '../support/db';

/**
 * Price-protected requests: a buy fills only at or below its limit price, a sell only at or above it, at the
 * server's current price; a request past its expiry cannot be approved (it shows as expired, and an expired
 * sell reserves nothing). Refusals name the price and the limit, and change nothing.
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

let coin: string;
beforeEach(() => {
  coin = `protected${randomUUID().slice(0, 8)}`;
});

const asAdmin = (sql: string, params: unknown[]) => queryAs(pool, signedIn(admin.id), sql, params);

async function buyRequest(person: CreatedUser, limitPrice: string | null, expiresAt: string | null = null) {
  const { rows } = await queryAs<{ id: string; limit_price: string | null; expires_in: string }>(
    pool,
    signedIn(person.id),
    `select id, limit_price::text, round(extract(epoch from expires_at - now()) / 3600)::text as expires_in
     from public.create_buy_request($1, 100, gen_random_uuid(), $2, $3)`,
    [coin, limitPrice, expiresAt],
  );
  return rows[0] ?? { id: '', limit_price: null, expires_in: '' };
}

async function holderOf(quantity: string): Promise<CreatedUser> {
  const person = await createUser(pool, { deposit: 110 });
  await pool.query(
    `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price)
     values ($1, 'buy', 10, 'complete', $2, $3, 1)`,
    [person.id, coin, quantity],
  );
  return person;
}

async function sellRequest(person: CreatedUser, quantity: string, limitPrice: string | null) {
  const { rows } = await queryAs<{ id: string }>(
    pool,
    signedIn(person.id),
    'select id from public.create_sell_request($1, $2, gen_random_uuid(), $3)',
    [coin, quantity, limitPrice],
  );
  return rows[0]?.id ?? '';
}

const approveBuy = (id: string) => asAdmin('select public.approve_buy_request($1, gen_random_uuid())', [id]);
const approveSell = (id: string) =>
  asAdmin('select public.approve_sell_request($1, gen_random_uuid())', [id]);

const expire = (table: 'buy_requests' | 'sell_requests', id: string) =>
  pool.query(`update public.${table} set expires_at = now() - interval '1 minute' where id = $1`, [id]);

async function statusOf(table: 'buy_requests' | 'sell_requests', id: string) {
  const { rows } = await asAdmin(`select status, expired from public.${table}_with_user where id = $1`, [id]);
  return rows[0];
}

describe('a buy request with a limit price', () => {
  it('fills at the current price when it is at or below the limit', async () => {
    const person = await createUser(pool, { deposit: 1000 });
    await addPriceSnapshot(pool, coin, '50');
    const request = await buyRequest(person, '50');
    await approveBuy(request.id);
    expect(await statusOf('buy_requests', request.id)).toEqual({ status: 'approved', expired: false });
    expect((await walletOf(pool, person.id)).balance).toBe(900);
  });

  it('is refused above the limit, naming the price and the limit, and nothing changes', async () => {
    const person = await createUser(pool, { deposit: 1000 });
    await addPriceSnapshot(pool, coin, '51.5');
    const request = await buyRequest(person, '51');
    expect(await errorOf(approveBuy(request.id))).toEqual({
      code: 'P0001',
      message: `The price of ${coin} is $51.5 now, above this request's limit of $51`,
    });
    expect(await statusOf('buy_requests', request.id)).toEqual({ status: 'pending', expired: false });
    expect((await walletOf(pool, person.id)).balance).toBe(1000);
  });

  it('expires 24 hours after it was made unless it says otherwise', async () => {
    const person = await createUser(pool, { deposit: 1000 });
    expect(await buyRequest(person, null)).toMatchObject({ limit_price: null, expires_in: '24' });
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    expect(await buyRequest(person, '10', inAnHour)).toMatchObject({ limit_price: '10', expires_in: '1' });
  });

  it('cannot be approved once expired, shows as expired, and can still be rejected', async () => {
    const person = await createUser(pool, { deposit: 1000 });
    await addPriceSnapshot(pool, coin, '50');
    const request = await buyRequest(person, '60');
    await expire('buy_requests', request.id);
    expect(await statusOf('buy_requests', request.id)).toEqual({ status: 'pending', expired: true });
    const error = await errorOf(approveBuy(request.id));
    expect(error.message).toMatch(
      /^This request expired at \d{4}-\d\d-\d\d \d\d:\d\d UTC and cannot be approved$/,
    );
    expect((await walletOf(pool, person.id)).balance).toBe(1000);
    await asAdmin('select public.reject_buy_request($1, gen_random_uuid())', [request.id]);
    expect(await statusOf('buy_requests', request.id)).toEqual({ status: 'rejected', expired: false });
  });

  it.each([
    ['0', null, 'Limit price must be greater than 0'],
    ['-5', null, 'Limit price must be greater than 0'],
    ['10', '2000-01-01T00:00:00Z', 'Expiry must be in the future'],
    ['10', '2999-01-01T00:00:00Z', 'Expiry can be at most 30 days ahead'],
  ])(
    'refuses the limit %s with expiry %s: "%s", creating nothing',
    async (limitPrice, expiresAt, message) => {
      const person = await createUser(pool, { deposit: 1000 });
      expect(await errorOf(buyRequest(person, limitPrice, expiresAt))).toEqual({ code: 'P0001', message });
      const { rows } = await pool.query('select 1 from public.buy_requests where user_id = $1', [person.id]);
      expect(rows).toEqual([]);
    },
  );
});

describe('a sell request with a limit price', () => {
  it('fills at or above the limit and is refused below it, naming the price and the limit', async () => {
    const person = await holderOf('2');
    await addPriceSnapshot(pool, coin, '40');
    const atLimit = await sellRequest(person, '1', '40');
    const aboveNow = await sellRequest(person, '1', '40.01');
    await approveSell(atLimit);
    expect(await errorOf(approveSell(aboveNow))).toEqual({
      code: 'P0001',
      message: `The price of ${coin} is $40 now, below this request's limit of $40.01`,
    });
    expect(await statusOf('sell_requests', aboveNow)).toEqual({ status: 'pending', expired: false });
    expect((await walletOf(pool, person.id)).balance).toBe(140);
  });

  it('cannot be approved once expired, and no longer reserves its coins', async () => {
    const person = await holderOf('1');
    await addPriceSnapshot(pool, coin, '40');
    const requestId = await sellRequest(person, '1', null);
    await expire('sell_requests', requestId);
    expect(await statusOf('sell_requests', requestId)).toEqual({ status: 'pending', expired: true });
    expect((await errorOf(approveSell(requestId))).message).toMatch(
      /^This request expired at .* and cannot be approved$/,
    );
    const { rows } = await pool.query(
      'select reserved::text, available::text from public.holdings where user_id = $1 and cryptocurrency = $2',
      [person.id, coin],
    );
    expect(rows).toEqual([{ reserved: '0', available: '1' }]);
    // The freed coins can be asked for again, and that request fills.
    await approveSell(await sellRequest(person, '1', '39'));
    expect((await walletOf(pool, person.id)).balance).toBe(140);
  });
});
