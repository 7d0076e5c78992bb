import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addBuyRequest, connect, createUser, errorOf, type CreatedUser } from '../support/db';

/**
 * The checks a row must pass whoever writes it (the operator included), read from the rows they let in and the
 * rows they refuse, by name. Each statement runs in a transaction that is rolled back, so nothing is left.
 */
let pool: pg.Pool;
let person: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  person = await createUser(pool, { deposit: 1_000 });
});

afterAll(async () => {
  await pool.end();
});

/** Runs one statement as the operator and rolls it back: undefined when accepted, else the refusal. */
async function refusalOf(
  sql: string,
  values: unknown[],
): Promise<{ code: string; message: string } | undefined> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    return await client.query(sql, values).then(
      () => undefined,
      (error: Error) => errorOf(Promise.reject(error)),
    );
  } finally {
    await client.query('rollback');
    client.release();
  }
}

const refusedBy = (constraint: string) => ({ code: '23514', message: expect.stringContaining(constraint) });

describe('a notification', () => {
  const notify = (kind: string) =>
    refusalOf(
      `insert into public.notifications (user_id, kind, title, body) values ($1, $2, 'Title', 'Body')`,
      [person.id, kind],
    );

  it.each(['buy_request.approved', 'deposit.completed', 'security.sign_in', 'price_alert.triggered'])(
    'of a known kind (%s) is written',
    async (kind) => {
      expect(await notify(kind)).toBeUndefined();
    },
  );

  it.each(['buy_request.approve', 'BUY_REQUEST.APPROVED', '', 'deposit.completed '])(
    'of any other kind (%j) is refused',
    async (kind) => {
      expect(await notify(kind)).toMatchObject(refusedBy('notifications_kind_known'));
    },
  );
});

describe("a transaction's coins", () => {
  const entry = (type: string, quantity: string | null, price: string | null) =>
    refusalOf(
      `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price)
       values ($1, $2::public.transaction_type, 100, 'pending', case when $2::text in ('buy', 'sell') then 'bitcoin' end, $3, $4)`,
      [person.id, type, quantity, price],
    );

  it.each([
    ['deposit', null, null],
    ['withdraw', null, null],
    ['buy', '0.002', '50000'],
    ['sell', '0.002', '50000'],
    ['buy', null, null],
  ])('a %s with quantity %s at price %s is written', async (type, quantity, price) => {
    expect(await entry(type, quantity, price)).toBeUndefined();
  });

  it.each([
    ['deposit', '0.002', '50000'],
    ['withdraw', null, '50000'],
    ['buy', '0.002', null],
    ['sell', null, '50000'],
    ['buy', '0', '50000'],
    ['sell', '0.002', '-1'],
  ])('a %s with quantity %s at price %s is refused', async (type, quantity, price) => {
    expect(await entry(type, quantity, price)).toMatchObject(refusedBy('transactions_coin_fill'));
  });
});

describe("a buy request's rejection reason", () => {
  let requestId: string;

  beforeAll(async () => {
    requestId = await addBuyRequest(pool, person.id, 100);
  });

  const decide = (status: string, reason: string | null) =>
    refusalOf(
      `update public.buy_requests set status = $2::public.request_status, decided_at = case when $2::text <> 'pending' then now() end,
         rejection_reason = $3 where id = $1`,
      [requestId, status, reason],
    );

  it.each([
    ['rejected', 'a reason', 'Limit too far from the market'],
    ['rejected', 'a reason of 500 characters', 'x'.repeat(500)],
    ['rejected', 'no reason', null],
    ['approved', 'no reason', null],
  ])('%s with %s is kept', async (status, _reason, reason) => {
    expect(await decide(status, reason)).toBeUndefined();
  });

  it.each([
    ['rejected', 'a reason of 501 characters', 'x'.repeat(501)],
    ['rejected', 'an empty reason', ''],
    ['approved', 'a reason', 'Fine'],
    ['pending', 'a reason', 'Not yet'],
  ])('%s with %s is refused', async (status, _reason, reason) => {
    expect(await decide(status, reason)).toMatchObject(refusedBy('buy_requests_rejection_reason_shape'));
  });
});
