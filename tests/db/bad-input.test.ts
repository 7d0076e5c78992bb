import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  connect,
  createUser,
  errorOf,
  createWithdrawRequest,
  onlyRow,
  queryAs,
  signedIn,
  walletOf,
  type CreatedUser,
} from '../support/db';

/**
 * Bad input changes nothing: every refusal names what is wrong, and no row is written. The limits
 * are the seeded 10 to 10,000 USD.
 */
let pool: pg.Pool;
let person: CreatedUser;
let admin: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  person = await createUser(pool, { deposit: 50_000 });
  admin = await createUser(pool, { admin: true });
});

afterAll(async () => {
  await pool.end();
});

async function rowCount(table: string, userId: string): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(
    `select count(*)::int as count from public.${table} where user_id = $1`,
    [userId],
  );
  return onlyRow(rows).count;
}

/** Amounts as the API receives them (JSON text), each with the refusal a person should read. */
const badAmounts: [string, string][] = [
  ['0', 'Amount must be greater than 0'],
  ['-5', 'Amount must be greater than 0'],
  ['10.005', 'Amount must have at most 2 decimal places'],
  ['NaN', 'Amount must be a number'],
  ['Infinity', 'Amount is too large'],
  ['1e15', 'Amount is too large'],
];

describe('buy requests', () => {
  it.each([
    ...badAmounts,
    ['5', 'Minimum transaction amount is $10'],
    ['9.99', 'Minimum transaction amount is $10'],
    ['10000.01', 'Maximum transaction amount is $10,000'],
  ])('an amount of %s is refused with "%s" and nothing is written', async (amount, message) => {
    const error = await errorOf(
      queryAs(pool, signedIn(person.id), `select public.create_buy_request('bitcoin', $1, $2)`, [
        amount,
        randomUUID(),
      ]),
    );
    expect(error).toMatchObject({ code: 'P0001', message });
    expect(await rowCount('buy_requests', person.id)).toBe(0);
  });

  it('an amount that is not a number at all is refused by the type', async () => {
    const error = await errorOf(
      queryAs(pool, signedIn(person.id), `select public.create_buy_request('bitcoin', $1, $2)`, [
        'ten dollars',
        randomUUID(),
      ]),
    );
    expect(error).toMatchObject({
      code: '22P02',
      message: 'invalid input syntax for type numeric: "ten dollars"',
    });
    expect(await rowCount('buy_requests', person.id)).toBe(0);
  });

  it.each(['', '   '])('a blank cryptocurrency %j is refused', async (coin) => {
    const error = await errorOf(
      queryAs(pool, signedIn(person.id), `select public.create_buy_request($1, 50, $2)`, [
        coin,
        randomUUID(),
      ]),
    );
    expect(error).toMatchObject({ code: 'P0001', message: 'Please select a cryptocurrency' });
    expect(await rowCount('buy_requests', person.id)).toBe(0);
  });

  it('the limits themselves are accepted: $10 and $10,000', async () => {
    for (const amount of ['10', '10000']) {
      const { rows } = await queryAs<{ amount: string; status: string }>(
        pool,
        signedIn(person.id),
        `select request.amount::text as amount, request.status
         from public.create_buy_request('bitcoin', $1, $2) as request`,
        [amount, randomUUID()],
        { rollback: true },
      );
      expect(onlyRow(rows)).toEqual({ amount, status: 'pending' });
    }
  });
});

describe('withdraw requests', () => {
  const create = (amount: string, method = 'bank', encryptedData = 'iv.data.key') =>
    createWithdrawRequest(pool, signedIn(person.id), { amount, method, encryptedData });

  it.each([
    ...badAmounts,
    ['5', 'Minimum withdrawal amount is $10'],
    ['10000.5', 'Maximum withdrawal amount is $10,000'],
  ])('an amount of %s is refused with "%s" and nothing is written', async (amount, message) => {
    expect(await errorOf(create(amount))).toMatchObject({ code: 'P0001', message });
    expect(await rowCount('withdraw_requests', person.id)).toBe(0);
  });

  it.each([
    ['an unknown method', () => create('50', 'cash'), 'Withdraw method is required'],
    ['no encrypted details', () => create('50', 'bank', ' '), 'Encrypted withdrawal details are required'],
  ])('%s is refused', async (_what, attempt, message) => {
    expect(await errorOf(attempt())).toMatchObject({ code: 'P0001', message });
    expect(await rowCount('withdraw_requests', person.id)).toBe(0);
  });
});

describe('admin deposits', () => {
  it.each(badAmounts)(
    'an amount of %s is refused with "%s" and nothing is written',
    async (amount, message) => {
      const target = await createUser(pool);
      const error = await errorOf(
        queryAs(pool, signedIn(admin.id), 'select public.create_deposit($1, $2, $3)', [
          target.id,
          amount,
          randomUUID(),
        ]),
      );
      expect(error).toMatchObject({ code: 'P0001', message });
      expect(await rowCount('transactions', target.id)).toBe(0);
    },
  );
});

describe('status types', () => {
  async function statusTypeNames(): Promise<string[]> {
    const { rows } = await pool.query<{ name: string }>('select name from public.status_types order by name');
    return rows.map((row) => row.name);
  }

  it.each([
    ['', 'Status type name is required'],
    ['   ', 'Status type name is required'],
    ['Pending', 'Status "Pending" is built in'],
    ['approved', 'Status "approved" is built in'],
  ])('the name %j is refused with "%s"', async (name, message) => {
    const before = await statusTypeNames();
    const error = await errorOf(
      queryAs(pool, signedIn(admin.id), 'insert into public.status_types (name) values ($1)', [name]),
    );
    expect(error).toMatchObject({ code: 'P0001', message });
    expect(await statusTypeNames()).toEqual(before);
  });

  it('a name longer than 50 characters is refused', async () => {
    const error = await errorOf(
      queryAs(pool, signedIn(admin.id), 'insert into public.status_types (name) values ($1)', [
        'x'.repeat(51),
      ]),
    );
    expect(error).toMatchObject({
      code: '23514',
      message: expect.stringContaining('status_types_name_length'),
    });
  });

  it('a name that exists already is refused as a duplicate', async () => {
    const error = await errorOf(
      queryAs(pool, signedIn(admin.id), `insert into public.status_types (name) values (' processing ')`),
    );
    expect(error).toMatchObject({ code: '23505' });
  });

  it('an unknown status is refused by the status RPCs', async () => {
    const { rows } = await pool.query<{ id: string }>(
      `select id from public.transactions where user_id = $1 limit 1`,
      [person.id],
    );
    const error = await errorOf(
      queryAs(pool, signedIn(admin.id), 'select public.set_transaction_status($1, $2, $3)', [
        onlyRow(rows).id,
        'shipped',
        randomUUID(),
      ]),
    );
    expect(error).toMatchObject({ code: 'P0001', message: 'Unknown status "shipped"' });
    expect(await walletOf(pool, person.id)).toMatchObject({ balance: 50_000 });
  });
});

describe('profiles', () => {
  it('a full name longer than 200 characters is refused', async () => {
    const error = await errorOf(
      queryAs(pool, signedIn(person.id), 'update public.profiles set full_name = $1 where id = $2', [
        'x'.repeat(201),
        person.id,
      ]),
    );
    expect(error).toMatchObject({
      code: '23514',
      message: expect.stringContaining('profiles_full_name_length'),
    });
  });
});

describe('transaction limits', () => {
  async function limits() {
    const { rows } = await pool.query(
      'select min_amount::text, max_amount::text from public.transaction_limits',
    );
    return rows;
  }

  it.each([
    ['100', '100', 'Minimum amount must be less than maximum amount'],
    ['500', '100', 'Minimum amount must be less than maximum amount'],
    ['-1', '100', 'Amounts cannot be negative'],
    ['10', '-100', 'Amounts cannot be negative'],
    ['10.001', '100', 'Amounts must have at most 2 decimal places'],
    ['NaN', '100', 'Amounts must be numbers'],
  ])('min %s and max %s are refused with "%s"', async (min, max, message) => {
    const error = await errorOf(
      queryAs(
        pool,
        signedIn(admin.id),
        'update public.transaction_limits set min_amount = $1, max_amount = $2',
        [min, max],
      ),
    );
    expect(error).toMatchObject({ code: 'P0001', message });
    expect(await limits()).toEqual([{ min_amount: '10', max_amount: '10000' }]);
  });
});
