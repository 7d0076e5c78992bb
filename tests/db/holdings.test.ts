import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  addBuyRequest,
  addPriceSnapshot,
  anon,
  connect,
  createUser,
  errorOf,
  queryAs,
  signedIn,
  walletOf,
  type Actor,
  type CreatedUser,
} from '../support/db';

/**
 * What a person owns: an approval records the coins bought at the server's current price (the newest
 * snapshot, at most 2 minutes old), in the same locked step as the balance check; the holdings are the
 * ledger's bought - sold, per coin.
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

/** Each test prices a coin of its own, so prices recorded meanwhile by anyone else do not matter. */
let coin: string;
beforeEach(() => {
  coin = `holding-${randomUUID().slice(0, 8)}`;
});

const addSnapshot = (cryptocurrency: string, price: string, minutesAgo: number) =>
  addPriceSnapshot(pool, cryptocurrency, price, minutesAgo);

/** A pending request for `coin` (no price of its own: the test writes the snapshots). */
async function requestFor(userId: string, amount: number): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.buy_requests (user_id, cryptocurrency, amount) values ($1, $2, $3) returning id`,
    [userId, coin, amount],
  );
  return rows[0]?.id ?? '';
}

const approve = (requestId: string) =>
  queryAs(pool, signedIn(admin.id), 'select public.approve_buy_request($1, gen_random_uuid())', [requestId]);

async function buyEntryOf(requestId: string) {
  const { rows } = await pool.query<{ amount: string; quantity: string; price: string }>(
    'select amount::text, quantity::text, price::text from public.transactions where buy_request_id = $1',
    [requestId],
  );
  return rows;
}

async function holdingsOf(actor: Actor, userId: string) {
  const { rows } = await queryAs<{ cryptocurrency: string; quantity: string; average_cost: string }>(
    pool,
    actor,
    `select cryptocurrency, quantity::text, bought::text, sold::text, bought_for::text, average_cost::text
     from public.holdings where user_id = $1 and cryptocurrency = $2`,
    [userId, coin],
  );
  return rows;
}

describe('an approved buy records the coins bought', () => {
  it('at the newest snapshot of the coin, not an older one', async () => {
    const buyer = await createUser(pool, { deposit: 1000 });
    await addSnapshot(coin, '100', 2);
    await addSnapshot(coin, '80', 0);
    const requestId = await requestFor(buyer.id, 100);
    await approve(requestId);
    expect(await buyEntryOf(requestId)).toEqual([
      { amount: '100', quantity: '1.250000000000000000', price: '80' },
    ]);
    expect((await walletOf(pool, buyer.id)).balance).toBe(900);
  });

  it.each([
    ['10', '3', '3.333333333333333333'],
    ['10', '7', '1.428571428571428571'],
    ['25.5', '95123.456789012', '0.000268072680081003'],
    // At most the four-eyes threshold (1,000 USD), so one admin's approval fills it.
    ['1000', '0.00001234', '81037277.147487844408427876'],
  ])('$%s at %s buys %s coins: exact, truncated to 18 places', async (amount, price, quantity) => {
    const buyer = await createUser(pool, { deposit: 10_000 });
    await addSnapshot(coin, price, 0);
    const requestId = await requestFor(buyer.id, Number(amount));
    await approve(requestId);
    expect(await buyEntryOf(requestId)).toEqual([{ amount, quantity, price }]);
  });

  it('is refused without a price from the last 2 minutes, and nothing changes', async () => {
    const buyer = await createUser(pool, { deposit: 1000 });
    await addSnapshot(coin, '100', 3);
    const requestId = await requestFor(buyer.id, 100);
    const error = await errorOf(approve(requestId));
    expect(error).toEqual({
      code: 'P0001',
      message: `No current price for ${coin}: none was recorded in the last 2 minutes`,
    });
    const { rows } = await pool.query('select status from public.buy_requests where id = $1', [requestId]);
    expect(rows).toEqual([{ status: 'pending' }]);
    expect(await buyEntryOf(requestId)).toEqual([]);
    expect((await walletOf(pool, buyer.id)).balance).toBe(1000);
  });

  it('says Insufficient balance first when the balance does not cover it either', async () => {
    const buyer = await createUser(pool, { deposit: 50 });
    const requestId = await requestFor(buyer.id, 100);
    expect((await errorOf(approve(requestId))).message).toBe('Insufficient balance');
  });

  it('keeps its quantity and price final, for every writer', async () => {
    const buyer = await createUser(pool, { deposit: 1000 });
    await addSnapshot(coin, '50', 0);
    const requestId = await requestFor(buyer.id, 100);
    await approve(requestId);
    for (const change of ['quantity = 100', 'price = 1']) {
      const error = await errorOf(
        pool.query(`update public.transactions set ${change} where buy_request_id = $1`, [requestId]),
      );
      expect(error.message).toBe('Transactions of approved requests are final');
    }
    expect(await buyEntryOf(requestId)).toEqual([
      { amount: '100', quantity: '2.000000000000000000', price: '50' },
    ]);
  });
});

describe('holdings', () => {
  it('are bought - sold per coin, from complete entries only, with the average cost paid', async () => {
    const buyer = await createUser(pool, { deposit: 1000 });
    await addSnapshot(coin, '40', 1);
    await approve(await requestFor(buyer.id, 100));
    await addSnapshot(coin, '50', 0);
    await approve(await requestFor(buyer.id, 100));
    // A sell as a later step will write it (complete), and one that is not complete.
    await pool.query(
      `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price)
       values ($1, 'sell', 60, 'complete', $2, 1, 60), ($1, 'sell', 60, 'pending', $2, 1, 60)`,
      [buyer.id, coin],
    );
    expect(await holdingsOf(signedIn(buyer.id), buyer.id)).toEqual([
      {
        cryptocurrency: coin,
        quantity: '3.500000000000000000',
        bought: '4.500000000000000000',
        sold: '1',
        bought_for: '200',
        average_cost: '44.44444444',
      },
    ]);
  });

  it('change only with the ledger: a rejected request adds nothing', async () => {
    const buyer = await createUser(pool, { deposit: 1000 });
    await addSnapshot(coin, '10', 0);
    const requestId = await requestFor(buyer.id, 100);
    await queryAs(pool, signedIn(admin.id), 'select public.reject_buy_request($1, gen_random_uuid())', [
      requestId,
    ]);
    expect(await holdingsOf(signedIn(buyer.id), buyer.id)).toEqual([]);
  });

  describe('who sees them', () => {
    let owner: CreatedUser;
    let otherUser: CreatedUser;
    beforeEach(async () => {
      owner = await createUser(pool, { deposit: 100 });
      otherUser = await createUser(pool);
      await addSnapshot(coin, '20', 0);
      await approve(await requestFor(owner.id, 40));
    });

    it('the owner sees their own', async () => {
      expect((await holdingsOf(signedIn(owner.id), owner.id)).map((row) => row.quantity)).toEqual([
        '2.000000000000000000',
      ]);
    });

    it('an admin sees everyone’s', async () => {
      expect(await holdingsOf(signedIn(admin.id), owner.id)).toHaveLength(1);
    });

    it('another user sees none of them', async () => {
      expect(await holdingsOf(signedIn(otherUser.id), owner.id)).toEqual([]);
    });

    it('a visitor is refused', async () => {
      const error = await errorOf(holdingsOf(anon, owner.id));
      expect(error).toEqual({ code: '42501', message: 'permission denied for view holdings' });
    });
  });
});

describe('the operator fixture', () => {
  it('gives bitcoin requests a current price, so older tests still approve', async () => {
    const buyer = await createUser(pool, { deposit: 100 });
    const requestId = await addBuyRequest(pool, buyer.id, 10);
    await approve(requestId);
    expect((await walletOf(pool, buyer.id)).balance).toBe(90);
  });
});
