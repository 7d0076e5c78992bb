import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  addPriceSnapshot,
  anon,
  connect,
  createUser,
  errorOf,
  queryAs,
  race,
  signedIn,
  signedInWithPasswordOnly,
  walletOf,
  type Actor,
  type CreatedUser,
} from '../support/db';

/**
 * Selling coins back: a pending sell reserves its quantity (as an open withdrawal reserves USD), an admin's
 * approval credits quantity × the server's current price (truncated to the cent) as a complete sell entry in
 * one locked step, a rejection frees the reservation, and a retry with the same key creates or credits nothing
 * twice. Races over one person's holdings never sell more than they hold.
 */
const racers = 20;

let pool: pg.Pool;
let admin: CreatedUser;

beforeAll(async () => {
  // One connection per racer, so the races really are in flight at once.
  pool = connect(inject('databaseUrl'), racers * 2 + 2);
  admin = await createUser(pool, { admin: true });
});

afterAll(async () => {
  await pool.end();
});

/** Each test prices a coin of its own, so prices recorded meanwhile by anyone else do not matter. */
let coin: string;
beforeEach(() => {
  coin = `selling${randomUUID().slice(0, 8)}`;
});

const setPrice = (price: string, minutesAgo = 0) => addPriceSnapshot(pool, coin, price, minutesAgo);

/** A person holding `quantity` of `coin` (a settled buy of $10, written as the operator) and $100. */
async function holderOf(quantity: string): Promise<CreatedUser> {
  const person = await createUser(pool, { deposit: 110 });
  await pool.query(
    `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price)
     values ($1, 'buy', 10, 'complete', $2, $3, 1)`,
    [person.id, coin, quantity],
  );
  return person;
}

interface SellRequestRow {
  id: string;
  user_id: string;
  cryptocurrency: string;
  quantity: string;
  status: string;
}

const createSell = (
  actor: Actor,
  quantity: string | null,
  key: string = randomUUID(),
  cryptocurrency = coin,
) =>
  queryAs<SellRequestRow>(
    pool,
    actor,
    `select id, user_id, cryptocurrency, quantity::text, status from public.create_sell_request($1, $2, $3)`,
    [cryptocurrency, quantity, key],
  );

async function sell(person: CreatedUser, quantity: string): Promise<string> {
  const { rows } = await createSell(signedIn(person.id), quantity);
  return rows[0]?.id ?? '';
}

const approve = (requestId: string, key: string = randomUUID(), actor: Actor = signedIn(admin.id)) =>
  queryAs(pool, actor, 'select public.approve_sell_request($1, $2)', [requestId, key]);
const reject = (requestId: string, key: string = randomUUID()) =>
  queryAs(pool, signedIn(admin.id), 'select public.reject_sell_request($1, $2)', [requestId, key]);

async function holdingOf(userId: string) {
  const { rows } = await pool.query<{ quantity: string; reserved: string; available: string }>(
    `select quantity::text, reserved::text, available::text from public.holdings
     where user_id = $1 and cryptocurrency = $2`,
    [userId, coin],
  );
  return rows[0];
}

async function sellEntriesOf(userId: string) {
  const { rows } = await pool.query<{ amount: string; quantity: string; price: string; status: string }>(
    `select amount::text, quantity::text, price::text, status from public.transactions
     where user_id = $1 and type = 'sell' order by date`,
    [userId],
  );
  return rows;
}

async function statusOf(requestId: string): Promise<string | undefined> {
  const { rows } = await pool.query<{ status: string }>(
    'select status from public.sell_requests where id = $1',
    [requestId],
  );
  return rows[0]?.status;
}

describe('asking to sell', () => {
  it('creates a pending request that reserves its quantity', async () => {
    const person = await holderOf('2');
    const { rows } = await createSell(signedIn(person.id), '0.5');
    expect(rows).toEqual([
      {
        id: expect.any(String),
        user_id: person.id,
        cryptocurrency: coin,
        quantity: '0.5',
        status: 'pending',
      },
    ]);
    expect(await holdingOf(person.id)).toEqual({ quantity: '2', reserved: '0.5', available: '1.5' });
  });

  it('refuses more than held minus what pending sells reserve, and creates nothing', async () => {
    const person = await holderOf('1');
    await sell(person, '0.6');
    const error = await errorOf(createSell(signedIn(person.id), '0.5'));
    expect(error).toEqual({ code: 'P0001', message: `Insufficient ${coin} (including all sell requests)` });
    expect(await holdingOf(person.id)).toEqual({ quantity: '1', reserved: '0.6', available: '0.4' });
    // Exactly what is left is fine.
    await sell(person, '0.4');
    expect(await holdingOf(person.id)).toEqual({ quantity: '1', reserved: '1.0', available: '0.0' });
  });

  it('refuses a coin the person does not hold', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const error = await errorOf(createSell(signedIn(person.id), '0.001'));
    expect(error.message).toBe(`Insufficient ${coin} (including all sell requests)`);
  });

  it.each([
    ['0', 'Quantity must be greater than 0'],
    ['-1', 'Quantity must be greater than 0'],
    [null, 'Quantity must be greater than 0'],
    ['0.0000000000000000001', 'Quantity can have at most 18 decimal places'],
  ])('refuses the quantity %s with "%s", and creates nothing', async (quantity, message) => {
    const person = await holderOf('1');
    expect(await errorOf(createSell(signedIn(person.id), quantity))).toEqual({ code: 'P0001', message });
    expect(await holdingOf(person.id)).toEqual({ quantity: '1', reserved: '0', available: '1' });
  });

  it('refuses a blank coin with the buy form’s text', async () => {
    const person = await holderOf('1');
    const error = await errorOf(createSell(signedIn(person.id), '0.1', randomUUID(), ' '));
    expect(error.message).toBe('Please select a cryptocurrency');
  });

  it('is refused without an idempotency key, and to a visitor', async () => {
    const person = await holderOf('1');
    const withoutKey = await errorOf(
      queryAs(pool, signedIn(person.id), 'select public.create_sell_request($1, 0.1)', [coin]),
    );
    expect(withoutKey.message).toBe('Idempotency key is required');
    const visitor = await errorOf(createSell(anon, '0.1'));
    expect(visitor.code).toBe('42501');
    expect(await holdingOf(person.id)).toEqual({ quantity: '1', reserved: '0', available: '1' });
  });

  it('refuses a sale worth less than the minimum at the price now (3.37 USD under 10 USD), reserving nothing', async () => {
    const person = await holderOf('1');
    await setPrice('33.7');
    const error = await errorOf(createSell(signedIn(person.id), '0.1'));
    expect(error).toMatchObject({ code: 'P0001', message: 'Minimum transaction amount is $10' });
    expect(await holdingOf(person.id)).toEqual({ quantity: '1', reserved: '0', available: '1' });
  });

  it('refuses a sale worth more than the maximum at the price now, reserving nothing', async () => {
    const person = await holderOf('1');
    await setPrice('10000.01');
    const error = await errorOf(createSell(signedIn(person.id), '1'));
    expect(error).toMatchObject({ code: 'P0001', message: 'Maximum transaction amount is $10,000' });
    expect(await holdingOf(person.id)).toEqual({ quantity: '1', reserved: '0', available: '1' });
  });

  it('answers a retry with the same key with the same request, reserving once', async () => {
    const person = await holderOf('1');
    const key = randomUUID();
    const first = await createSell(signedIn(person.id), '0.7', key);
    const again = await createSell(signedIn(person.id), '0.7', key);
    expect(again.rows).toEqual(first.rows);
    expect(await holdingOf(person.id)).toEqual({ quantity: '1', reserved: '0.7', available: '0.3' });
    const changed = await errorOf(createSell(signedIn(person.id), '0.2', key));
    expect(changed.message).toBe('This request was already submitted with different details');
  });
});

describe('approving a sell', () => {
  it('credits quantity × the newest snapshot, truncated to the cent, as a complete sell entry', async () => {
    const person = await holderOf('2');
    await setPrice('999', 3);
    await setPrice('33.337', 0);
    const requestId = await sell(person, '1.5');
    await approve(requestId);
    // 1.5 × 33.337 = 50.0055: credited 50.00, never 50.01.
    expect(await sellEntriesOf(person.id)).toEqual([
      { amount: '50.00', quantity: '1.5', price: '33.337', status: 'complete' },
    ]);
    expect(await walletOf(pool, person.id)).toEqual({
      balance: 150,
      reserved: 0,
      available: 150,
      ledger: 150,
    });
    expect(await holdingOf(person.id)).toEqual({ quantity: '0.5', reserved: '0', available: '0.5' });
    expect(await statusOf(requestId)).toBe('approved');
  });

  it('tells the person what they were credited', async () => {
    const person = await holderOf('1');
    await setPrice('40');
    await approve(await sell(person, '0.25'));
    const { rows } = await pool.query(
      `select kind, title, body from public.notifications where user_id = $1 and kind like 'sell_request.%'`,
      [person.id],
    );
    expect(rows).toEqual([
      {
        kind: 'sell_request.approved',
        title: 'Sell request approved',
        body: `Your request to sell 0.25 ${coin[0]?.toUpperCase()}${coin.slice(1)} was approved: $10 was added to your balance.`,
      },
    ]);
  });

  it('is refused without a price from the last 2 minutes, and nothing changes', async () => {
    const person = await holderOf('1');
    await setPrice('40', 11);
    const requestId = await sell(person, '0.5');
    expect((await errorOf(approve(requestId))).message).toBe(
      `No current price for ${coin}: none was recorded in the last 2 minutes`,
    );
    expect(await statusOf(requestId)).toBe('pending');
    expect(await sellEntriesOf(person.id)).toEqual([]);
    expect((await walletOf(pool, person.id)).balance).toBe(100);
  });

  it('is refused when the sale is worth less than a cent', async () => {
    const person = await holderOf('1');
    await setPrice('20', 1);
    const requestId = await sell(person, '0.5');
    await setPrice('0.01');
    expect((await errorOf(approve(requestId))).message).toBe(
      'This sale is worth less than $0.01 at the current price',
    );
    expect(await statusOf(requestId)).toBe('pending');
  });

  it('credits once however often the same key is retried, and a second key hears the request was decided', async () => {
    const person = await holderOf('1');
    await setPrice('10');
    const requestId = await sell(person, '1');
    const key = randomUUID();
    await approve(requestId, key);
    await approve(requestId, key);
    expect((await errorOf(approve(requestId))).message).toBe('Request has already been decided');
    expect((await errorOf(reject(requestId))).message).toBe('Request has already been decided');
    expect(await sellEntriesOf(person.id)).toHaveLength(1);
    expect((await walletOf(pool, person.id)).balance).toBe(110);
  });

  it('is refused to the person themselves, to an admin without the code step, and without a key', async () => {
    const person = await holderOf('1');
    await setPrice('10');
    const requestId = await sell(person, '1');
    expect((await errorOf(approve(requestId, randomUUID(), signedIn(person.id)))).code).toBe('42501');
    expect(
      (await errorOf(approve(requestId, randomUUID(), signedInWithPasswordOnly(admin.id)))).message,
    ).toBe('Admins must confirm a code from their authenticator app (aal2) to do this');
    const withoutKey = await errorOf(
      queryAs(pool, signedIn(admin.id), 'select public.approve_sell_request($1)', [requestId]),
    );
    expect(withoutKey.message).toBe('Idempotency key is required');
    expect(await statusOf(requestId)).toBe('pending');
    expect(await sellEntriesOf(person.id)).toEqual([]);
  });

  it('keeps the sell entry and the decision final, for every writer', async () => {
    const person = await holderOf('1');
    await setPrice('10');
    const requestId = await sell(person, '1');
    await approve(requestId);
    const entry = await errorOf(
      pool.query(`update public.transactions set status = 'pending' where sell_request_id = $1`, [requestId]),
    );
    expect(entry.message).toBe('Transactions of approved requests are final');
    const decision = await errorOf(
      pool.query(`update public.sell_requests set quantity = 0.5 where id = $1`, [requestId]),
    );
    expect(decision.message).toBe('Request has already been decided');
  });

  it('answers an unknown request clearly', async () => {
    expect((await errorOf(approve(randomUUID()))).message).toBe('Sell request not found');
  });
});

describe('rejecting a sell', () => {
  it('frees the reservation, moves no money and tells the person', async () => {
    const person = await holderOf('1');
    const requestId = await sell(person, '1');
    expect(await holdingOf(person.id)).toEqual({ quantity: '1', reserved: '1', available: '0' });
    await reject(requestId);
    expect(await statusOf(requestId)).toBe('rejected');
    expect(await holdingOf(person.id)).toEqual({ quantity: '1', reserved: '0', available: '1' });
    expect(await sellEntriesOf(person.id)).toEqual([]);
    expect((await walletOf(pool, person.id)).balance).toBe(100);
    const { rows } = await pool.query(
      `select kind from public.notifications where user_id = $1 and kind like 'sell%'`,
      [person.id],
    );
    expect(rows).toEqual([{ kind: 'sell_request.rejected' }]);
    // What was freed can be asked for again.
    await sell(person, '1');
  });
});

describe('the admin sell queue', () => {
  async function queueRowOf(requestId: string) {
    const { rows } = await queryAs(
      pool,
      signedIn(admin.id),
      `select status, quantity::text, price::text, amount::text, held::text, available::text
       from public.sell_requests_with_user where id = $1`,
      [requestId],
    );
    return rows[0];
  }

  it('shows a pending request at the current price with what approving would credit now', async () => {
    const person = await holderOf('2');
    await setPrice('33.337');
    const requestId = await sell(person, '1.5');
    expect(await queueRowOf(requestId)).toEqual({
      status: 'pending',
      quantity: '1.5',
      price: '33.337',
      amount: '50.00',
      held: '2',
      available: '100.00',
    });
  });

  it('shows an approved request at the price it filled at and what it credited, whatever the price now', async () => {
    const person = await holderOf('1');
    await setPrice('10', 1);
    const requestId = await sell(person, '1');
    await approve(requestId);
    await setPrice('20');
    expect(await queueRowOf(requestId)).toMatchObject({
      status: 'approved',
      price: '10',
      amount: '10.00',
      held: '0',
    });
  });

  it('shows no price for a pending request without a current one', async () => {
    const person = await holderOf('1');
    await setPrice('10', 11);
    expect(await queueRowOf(await sell(person, '1'))).toMatchObject({ price: null, amount: null });
  });

  it('is counted in the admin navigation while pending', async () => {
    const person = await holderOf('1');
    const countNow = async () => {
      const { rows } = await queryAs<{ sell_requests: string }>(
        pool,
        signedIn(admin.id),
        'select sell_requests from public.admin_pending_counts()',
      );
      return Number(rows[0]?.sell_requests);
    };
    const before = await countNow();
    const requestId = await sell(person, '1');
    expect(await countNow()).toBe(before + 1);
    await reject(requestId);
    expect(await countNow()).toBe(before);
  });
});

describe('races over one person’s holdings', () => {
  it(`reserves exactly what is held when ${racers} sells are asked for at once`, async () => {
    const person = await holderOf('5');
    const { succeeded, failures } = await race(
      Array.from({ length: racers }, () => () => createSell(signedIn(person.id), '1')),
    );
    expect(succeeded).toBe(5);
    expect(failures).toEqual(
      Array.from({ length: racers - 5 }, () => `Insufficient ${coin} (including all sell requests)`),
    );
    expect(await holdingOf(person.id)).toEqual({ quantity: '5', reserved: '5', available: '0' });
  });

  it('credits each request once when admins approve the same requests concurrently, never selling more than held', async () => {
    const person = await holderOf('3');
    await setPrice('10');
    const requestIds = await Promise.all(Array.from({ length: 3 }, () => sell(person, '1')));
    const { succeeded, failures } = await race([
      ...requestIds.flatMap((id) => Array.from({ length: racers / 4 }, () => () => approve(id))),
      ...requestIds.map((id) => () => reject(id)),
    ]);
    expect(succeeded).toBe(3);
    expect(failures.filter((message) => message !== 'Request has already been decided')).toEqual([]);
    const approved = (await Promise.all(requestIds.map(statusOf))).filter((status) => status === 'approved');
    expect(await sellEntriesOf(person.id)).toHaveLength(approved.length);
    const wallet = await walletOf(pool, person.id);
    expect(wallet.balance).toBe(100 + 10 * approved.length);
    expect(wallet.balance).toBe(wallet.ledger);
    expect(Number((await holdingOf(person.id))?.quantity)).toBe(3 - approved.length);
  });

  it('never sells more than held when new sells race approvals over the same coins', async () => {
    const person = await holderOf('4');
    await setPrice('10');
    const requestIds = await Promise.all(Array.from({ length: 2 }, () => sell(person, '1')));
    const { failures } = await race([
      ...requestIds.map((id) => () => approve(id)),
      ...Array.from({ length: racers }, () => () => createSell(signedIn(person.id), '1')),
    ]);
    expect(
      failures.filter((message) => message !== `Insufficient ${coin} (including all sell requests)`),
    ).toEqual([]);
    const holding = await holdingOf(person.id);
    expect(holding).toEqual({ quantity: '2', reserved: '2', available: '0' });
    // Approving every request still pending sells exactly what is left.
    const { rows } = await pool.query<{ id: string }>(
      `select id from public.sell_requests where user_id = $1 and status = 'pending'`,
      [person.id],
    );
    await race(
      rows.map(
        ({ id }) =>
          () =>
            approve(id),
      ),
    );
    expect(await holdingOf(person.id)).toEqual({ quantity: '0', reserved: '0', available: '0' });
    expect((await walletOf(pool, person.id)).balance).toBe(140);
  });
});
