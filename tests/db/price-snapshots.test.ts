import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  anon,
  connect,
  createUser,
  errorOf,
  queryAs,
  serviceRole,
  signedIn,
  type Actor,
  type CreatedUser,
} from '../support/db';

/**
 * Prices on the server: the market function records each fresh answer with the service role; nobody else
 * writes; everyone reads. One snapshot per coin per minute for a day, the first of each hour for a year.
 */
let pool: pg.Pool;
let admin: CreatedUser;
let person: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await createUser(pool, { admin: true });
  person = await createUser(pool);
});

afterAll(async () => {
  await pool.end();
});

/** Each test prices coins of its own, so the other files' snapshots do not matter here. */
let coin: string;
let counter = 0;
beforeEach(() => {
  counter += 1;
  coin = `test-coin-${process.pid}-${counter}`;
});

const record = (prices: unknown, actor: Actor = serviceRole) =>
  queryAs<{ recorded: number }>(pool, actor, 'select public.record_price_snapshots($1) as recorded', [
    JSON.stringify(prices),
  ]);

async function snapshotsOf(cryptocurrency: string) {
  const { rows } = await pool.query<{ price: string; hourly: boolean; age: string }>(
    `select price::text, hourly, (date_trunc('minute', now()) - captured_at)::text as age
     from public.price_snapshots where cryptocurrency = $1 order by captured_at`,
    [cryptocurrency],
  );
  return rows;
}

/** A snapshot written as the database operator, `age` before this minute. */
async function addSnapshot(cryptocurrency: string, age: string, hourly: boolean, price = 100) {
  await pool.query(
    `insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly)
     values ($1, $2, date_trunc('minute', now()) - $3::interval, $4)`,
    [cryptocurrency, price, age, hourly],
  );
}

describe('recording', () => {
  it('writes each coin once this minute, exactly as given, the first of its hour marked hourly', async () => {
    const other = `${coin}-b`;
    const { rows } = await record([
      { cryptocurrency: coin, price: 95123.456789012 },
      { cryptocurrency: other, price: 0.00001234 },
    ]);
    expect(rows[0]?.recorded).toBe(2);
    expect(await snapshotsOf(coin)).toEqual([{ price: '95123.456789012', hourly: true, age: '00:00:00' }]);
    expect(await snapshotsOf(other)).toEqual([{ price: '0.00001234', hourly: true, age: '00:00:00' }]);
  });

  it('keeps the first price of a minute when the same minute is recorded again', async () => {
    await record([{ cryptocurrency: coin, price: 10 }]);
    const { rows } = await record([{ cryptocurrency: coin, price: 11 }]);
    expect(rows[0]?.recorded).toBe(0);
    expect((await snapshotsOf(coin)).map((row) => row.price)).toEqual(['10']);
  });

  it('marks a snapshot hourly only when its hour has none yet', async () => {
    // An earlier snapshot in this hour (at most the minutes gone since the hour began).
    const { rows } = await pool.query<{ minutes: number }>(
      `select extract(minute from now())::int as minutes`,
    );
    const minutes = rows[0]?.minutes ?? 0;
    if (minutes > 0) await addSnapshot(coin, `${minutes} minutes`, true);
    await record([{ cryptocurrency: coin, price: 12 }]);
    const hourly = (await snapshotsOf(coin)).map((row) => row.hourly);
    expect(hourly).toEqual(minutes > 0 ? [true, false] : [true]);
  });

  it.each([
    ['a list that is not a list', { cryptocurrency: 'bitcoin', price: 1 }],
    ['a price given as text', [{ cryptocurrency: 'bitcoin', price: '1' }]],
    ['a coin without an id', [{ price: 1 }]],
  ])('refuses %s and records nothing', async (_what, prices) => {
    const before = await pool.query('select count(*)::int as count from public.price_snapshots');
    const error = await errorOf(record(prices));
    expect(error).toEqual({ code: '22023', message: 'Prices must be a list of {cryptocurrency, price}' });
    const after = await pool.query('select count(*)::int as count from public.price_snapshots');
    expect(after.rows).toEqual(before.rows);
  });

  it.each([
    ['a price of zero', 0],
    ['a negative price', -5],
  ])('refuses %s and records nothing', async (_what, price) => {
    const error = await errorOf(record([{ cryptocurrency: coin, price }]));
    expect(error.code).toBe('23514');
    expect(await snapshotsOf(coin)).toEqual([]);
  });
});

describe('bounded growth', () => {
  it('keeps minute snapshots for a day and the hourly ones for a year, pruned by the next recording', async () => {
    await addSnapshot(coin, '366 days', true);
    await addSnapshot(coin, '364 days', true);
    await addSnapshot(coin, '25 hours', true);
    await addSnapshot(coin, '24 hours 59 minutes', false);
    await addSnapshot(coin, '23 hours 59 minutes', false);
    await record([{ cryptocurrency: `${coin}-trigger`, price: 1 }]);
    expect((await snapshotsOf(coin)).map((row) => [row.age, row.hourly])).toEqual([
      ['364 days', true],
      ['1 day 01:00:00', true],
      ['23:59:00', false],
    ]);
  });

  it('holds at most a day of minutes and a year of hours per coin', async () => {
    // Three days minute by minute, then hourly back to 370 days, as a market function that never pruned
    // would have left them.
    await pool.query(
      `insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly)
       select $1, 100, at, at = date_trunc('hour', at)
       from (
         select date_trunc('minute', now()) - make_interval(mins => n) as at from generate_series(1, 3 * 24 * 60) as n
         union
         select date_trunc('hour', now()) - make_interval(hours => n) from generate_series(3 * 24, 370 * 24) as n
       ) as moments`,
      [coin],
    );
    await record([{ cryptocurrency: coin, price: 1 }]);
    const { rows } = await pool.query<{ minutes: number; hours: number }>(
      `select count(*) filter (where not hourly)::int as minutes, count(*) filter (where hourly)::int as hours
       from public.price_snapshots where cryptocurrency = $1`,
      [coin],
    );
    expect(rows[0]?.minutes).toBeLessThanOrEqual(24 * 60);
    expect(rows[0]?.hours).toBeLessThanOrEqual(365 * 24 + 1);
    expect(rows[0]?.hours).toBeGreaterThanOrEqual(365 * 24 - 1);
  });
});

const roles: [string, () => Actor][] = [
  ['anon', () => anon],
  ['a person', () => signedIn(person.id)],
  ['an admin', () => signedIn(admin.id)],
];

describe('who may write and read', () => {
  it.each(roles)('record_price_snapshots is refused for %s and records nothing', async (_who, actor) => {
    const error = await errorOf(record([{ cryptocurrency: coin, price: 1 }], actor()));
    expect(error).toEqual({
      code: '42501',
      message: 'permission denied for function record_price_snapshots',
    });
    expect(await snapshotsOf(coin)).toEqual([]);
  });

  it.each([...roles, ['the service role', () => serviceRole] as [string, () => Actor]])(
    'a direct write is refused for %s',
    async (_who, actor) => {
      await addSnapshot(coin, '1 minute', true);
      for (const sql of [
        `insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly) values ($1, 1, date_trunc('minute', now()), false)`,
        'update public.price_snapshots set price = 1 where cryptocurrency = $1',
        'delete from public.price_snapshots where cryptocurrency = $1',
      ]) {
        const error = await errorOf(queryAs(pool, actor(), sql, [coin]));
        expect(error).toEqual({ code: '42501', message: 'permission denied for table price_snapshots' });
      }
      expect((await snapshotsOf(coin)).map((row) => row.price)).toEqual(['100']);
    },
  );

  it.each([...roles, ['the service role', () => serviceRole] as [string, () => Actor]])(
    'the latest price of a coin is readable by %s',
    async (_who, actor) => {
      await addSnapshot(coin, '2 minutes', false, 90);
      await addSnapshot(coin, '1 minute', false, 91);
      const { rows } = await queryAs(
        pool,
        actor(),
        'select price::text from public.latest_prices where cryptocurrency = $1',
        [coin],
      );
      expect(rows).toEqual([{ price: '91' }]);
    },
  );
});
