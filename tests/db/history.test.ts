import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { connect, createUser, errorOf, onlyRow, queryAs, signedIn, type Actor } from '../support/db';

/**
 * The wallet chart's history: a coin's price over a range (24h a point a minute; 7d, 30d and all a point an
 * hour, all a point a day once it spans more than 30 days), and the caller's portfolio value at the same
 * points: the USD balance then plus the coins held then (complete buys - sells up to that instant) at the prices
 * then. The entries below each move 10 USD (a buy takes it, a sale brings it), and the people's deposits are
 * dated after the points, so the cash at a point is -10 per buy and +10 per sale before it.
 */
let pool: pg.Pool;
/** This minute, as the database sees it: every snapshot and entry of a test is placed relative to it. */
let minute: Date;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

/** Each test prices coins of its own, so prices recorded meanwhile by anyone else do not matter. */
let coin: string;
beforeEach(async () => {
  coin = `history-${randomUUID().slice(0, 8)}`;
  minute = onlyRow(
    (await pool.query<{ minute: Date }>(`select date_trunc('minute', now()) as minute`)).rows,
  ).minute;
});

const minutesAgo = (minutes: number) => new Date(minute.getTime() - minutes * 60_000);

async function addSnapshot(cryptocurrency: string, capturedAt: Date, price: string, hourly = false) {
  await pool.query(
    `insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly) values ($1, $2, $3, $4)`,
    [cryptocurrency, price, capturedAt, hourly],
  );
}

/** A ledger entry as the approvals write them (the database operator stands in for them here). */
async function addEntry(
  userId: string,
  entry: { type: 'buy' | 'sell'; cryptocurrency: string; quantity: string; date: Date; status?: string },
) {
  await pool.query(
    `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price, date)
     values ($1, $2, 10, $3, $4, $5, 1, $6)`,
    [userId, entry.type, entry.status ?? 'complete', entry.cryptocurrency, entry.quantity, entry.date],
  );
}

async function priceHistory(actor: Actor, cryptocurrency: string, range: string) {
  const { rows } = await queryAs<{ captured_at: Date; price: string }>(
    pool,
    actor,
    'select captured_at, price::text from public.price_history($1, $2)',
    [cryptocurrency, range],
  );
  return rows.map((row) => ({ at: row.captured_at.toISOString(), price: row.price }));
}

async function portfolioHistory(actor: Actor, range: string) {
  const { rows } = await queryAs<{ captured_at: Date; value: string }>(
    pool,
    actor,
    'select captured_at, value::text from public.portfolio_history($1)',
    [range],
  );
  return rows.map((row) => ({ at: row.captured_at.toISOString(), value: row.value }));
}

/** The person's 24 h portfolio values alone, oldest first. */
async function valuesOf(userId: string) {
  return (await portfolioHistory(signedIn(userId), '24h')).map((point) => point.value);
}

const at = (date: Date) => date.toISOString();

describe('price_history', () => {
  it('draws every snapshot of the last 24 hours for 24h, and hourly ones for 7d, 30d and a short all, oldest first', async () => {
    const person = await createUser(pool);
    const dayAndAHalfAgo = minutesAgo(36 * 60);
    await addSnapshot(coin, dayAndAHalfAgo, '10', true);
    await addSnapshot(coin, minutesAgo(3), '11.5', true);
    await addSnapshot(coin, minutesAgo(1), '13.25');
    await addSnapshot(coin, minutesAgo(2), '12.123456789012');

    expect(await priceHistory(signedIn(person.id), coin, '24h')).toEqual([
      { at: at(minutesAgo(3)), price: '11.5' },
      { at: at(minutesAgo(2)), price: '12.123456789012' },
      { at: at(minutesAgo(1)), price: '13.25' },
    ]);
    const hourly = [
      { at: at(dayAndAHalfAgo), price: '10' },
      { at: at(minutesAgo(3)), price: '11.5' },
    ];
    for (const range of ['7d', '30d', 'all'])
      expect(await priceHistory(signedIn(person.id), coin, range)).toEqual(hourly);
  });

  it('leaves out what is older than the range', async () => {
    const person = await createUser(pool);
    await addSnapshot(coin, minutesAgo(8 * 24 * 60), '10', true);
    await addSnapshot(coin, minutesAgo(25 * 60), '11', true);
    await addSnapshot(coin, minutesAgo(5), '12', true);
    expect((await priceHistory(signedIn(person.id), coin, '24h')).map((point) => point.price)).toEqual([
      '12',
    ]);
    expect((await priceHistory(signedIn(person.id), coin, '7d')).map((point) => point.price)).toEqual([
      '11',
      '12',
    ]);
    expect((await priceHistory(signedIn(person.id), coin, '30d')).map((point) => point.price)).toEqual([
      '10',
      '11',
      '12',
    ]);
  });

  it('draws all a point a day (midnight UTC) and each hour of today once it spans more than 30 days', async () => {
    const person = await createUser(pool);
    const { midnight } = onlyRow(
      (
        await pool.query<{ midnight: Date }>(
          `select date_bin('1 day', now(), timestamptz '2000-01-01 00:00Z') as midnight`,
        )
      ).rows,
    );
    const hoursFromMidnight = (hours: number) => new Date(midnight.getTime() + hours * 3_600_000);
    await addSnapshot(coin, hoursFromMidnight(-40 * 24), '10', true);
    await addSnapshot(coin, hoursFromMidnight(-40 * 24 + 5), '11', true);
    await addSnapshot(coin, hoursFromMidnight(-24), '12', true);
    await addSnapshot(coin, hoursFromMidnight(-24 + 5), '13', true);
    await addSnapshot(coin, midnight, '14', true);
    expect(await priceHistory(signedIn(person.id), coin, 'all')).toEqual([
      { at: at(hoursFromMidnight(-40 * 24)), price: '10' },
      { at: at(hoursFromMidnight(-24)), price: '12' },
      { at: at(midnight), price: '14' },
    ]);
    expect((await priceHistory(signedIn(person.id), coin, '7d')).map((point) => point.price)).toEqual([
      '12',
      '13',
      '14',
    ]);
  });

  it.each([['1y'], ['24H'], [''], [null]])('refuses the range %j by name', async (range) => {
    const person = await createUser(pool);
    await addSnapshot(coin, minutesAgo(1), '10', true);
    expect(
      await errorOf(
        queryAs(pool, signedIn(person.id), 'select * from public.price_history($1, $2)', [coin, range]),
      ),
    ).toEqual({ code: '22023', message: 'Range must be one of 24h, 7d, 30d or all' });
  });
});

describe('portfolio_history', () => {
  it('values the coins held at each point at the price then, from the first entry on', async () => {
    const person = await createUser(pool, { deposit: 1000 });
    for (const [ago, price] of [
      [4, '90'],
      [3, '100'],
      [2, '110'],
      [1, '120'],
      [0, '130'],
    ] as const)
      await addSnapshot(coin, minutesAgo(ago), price);
    await addEntry(person.id, { type: 'buy', cryptocurrency: coin, quantity: '2', date: minutesAgo(2.5) });
    // An entry at the very instant of a snapshot counts at that snapshot.
    await addEntry(person.id, { type: 'buy', cryptocurrency: coin, quantity: '1', date: minutesAgo(1) });
    await addEntry(person.id, { type: 'sell', cryptocurrency: coin, quantity: '0.5', date: minutesAgo(0.5) });

    expect(await portfolioHistory(signedIn(person.id), '24h')).toEqual([
      { at: at(minutesAgo(2)), value: '210.00' },
      { at: at(minutesAgo(1)), value: '340.00' },
      { at: at(minutesAgo(0)), value: '315.00' },
    ]);
  });

  it('shows a sale as cash, not a crash: selling at the price keeps the value level', async () => {
    const person = await createUser(pool);
    await pool.query(
      `insert into public.transactions (user_id, type, amount, status, date) values ($1, 'deposit', 1000, 'complete', $2)`,
      [person.id, minutesAgo(10)],
    );
    for (const ago of [3, 2, 1, 0]) await addSnapshot(coin, minutesAgo(ago), '100');
    await pool.query(
      `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price, date)
       values ($1, 'buy', 500, 'complete', $2, 5, 100, $3), ($1, 'sell', 100, 'complete', $2, 1, 100, $4)`,
      [person.id, coin, minutesAgo(5), minutesAgo(1.5)],
    );
    expect(await valuesOf(person.id)).toEqual(['1000.00', '1000.00', '1000.00', '1000.00']);
  });

  it('counts complete entries only', async () => {
    const person = await createUser(pool, { deposit: 1000 });
    await addSnapshot(coin, minutesAgo(1), '100');
    await addSnapshot(coin, minutesAgo(0), '100');
    await addEntry(person.id, { type: 'buy', cryptocurrency: coin, quantity: '1', date: minutesAgo(2) });
    await addEntry(person.id, {
      type: 'buy',
      cryptocurrency: coin,
      quantity: '5',
      date: minutesAgo(2),
      status: 'pending',
    });
    await addEntry(person.id, {
      type: 'sell',
      cryptocurrency: coin,
      quantity: '1',
      date: minutesAgo(0.5),
      status: 'cancelled',
    });
    expect(await valuesOf(person.id)).toEqual(['90.00', '90.00']);
  });

  it('adds up every coin held, each at its newest price so far when it has no snapshot at a point', async () => {
    const person = await createUser(pool, { deposit: 1000 });
    const otherCoin = `${coin}-other`;
    for (const ago of [2, 1, 0]) await addSnapshot(coin, minutesAgo(ago), '100');
    await addSnapshot(otherCoin, minutesAgo(2), '10');
    await addEntry(person.id, { type: 'buy', cryptocurrency: coin, quantity: '1', date: minutesAgo(3) });
    await addEntry(person.id, {
      type: 'buy',
      cryptocurrency: otherCoin,
      quantity: '0.123456789',
      date: minutesAgo(3),
    });
    expect(await valuesOf(person.id)).toEqual(['81.23', '81.23', '81.23']);
  });

  it('is worth its cash alone once everything is sold', async () => {
    const person = await createUser(pool, { deposit: 1000 });
    for (const ago of [2, 1, 0]) await addSnapshot(coin, minutesAgo(ago), '50');
    await addEntry(person.id, { type: 'buy', cryptocurrency: coin, quantity: '2', date: minutesAgo(3) });
    await addEntry(person.id, { type: 'sell', cryptocurrency: coin, quantity: '2', date: minutesAgo(1.5) });
    expect(await valuesOf(person.id)).toEqual(['90.00', '0.00', '0.00']);
  });

  it('starts a range with what was held when it starts, however long before it was bought', async () => {
    const person = await createUser(pool, { deposit: 1000 });
    for (const ago of [2, 1]) await addSnapshot(coin, minutesAgo(ago), '10');
    await addEntry(person.id, {
      type: 'buy',
      cryptocurrency: coin,
      quantity: '2',
      date: minutesAgo(3 * 24 * 60),
    });
    await addEntry(person.id, {
      type: 'buy',
      cryptocurrency: coin,
      quantity: '1',
      date: minutesAgo(2 * 24 * 60),
    });
    await addEntry(person.id, { type: 'sell', cryptocurrency: coin, quantity: '0.5', date: minutesAgo(1.5) });
    expect(await valuesOf(person.id)).toEqual(['10.00', '15.00']);
  });

  it('uses the hourly points for the longer ranges', async () => {
    const person = await createUser(pool, { deposit: 1000 });
    await addSnapshot(coin, minutesAgo(3 * 60), '10', true);
    await addSnapshot(coin, minutesAgo(2 * 60), '20', true);
    await addSnapshot(coin, minutesAgo(2 * 60 - 1), '25');
    await addEntry(person.id, { type: 'buy', cryptocurrency: coin, quantity: '3', date: minutesAgo(4 * 60) });
    for (const range of ['7d', '30d', 'all'])
      expect(await portfolioHistory(signedIn(person.id), range)).toEqual([
        { at: at(minutesAgo(3 * 60)), value: '20.00' },
        { at: at(minutesAgo(2 * 60)), value: '50.00' },
      ]);
  });

  it("is only ever the caller's own: another person and an admin at aal2 see their own (none)", async () => {
    const person = await createUser(pool, { deposit: 1000 });
    const otherPerson = await createUser(pool);
    const admin = await createUser(pool, { admin: true });
    await addSnapshot(coin, minutesAgo(0), '100');
    await addEntry(person.id, { type: 'buy', cryptocurrency: coin, quantity: '1', date: minutesAgo(1) });
    expect(await portfolioHistory(signedIn(person.id), '24h')).toEqual([{ at: at(minute), value: '90.00' }]);
    expect(await portfolioHistory(signedIn(otherPerson.id), '24h')).toEqual([]);
    expect(await portfolioHistory(signedIn(admin.id), '24h')).toEqual([]);
  });

  it.each([['1y'], ['all '], [null]])(
    'refuses the range %j by name, also for a person who holds nothing',
    async (range) => {
      const person = await createUser(pool, { deposit: 1000 });
      expect(
        await errorOf(
          queryAs(pool, signedIn(person.id), 'select * from public.portfolio_history($1)', [range]),
        ),
      ).toEqual({ code: '22023', message: 'Range must be one of 24h, 7d, 30d or all' });
    },
  );
});

describe('the history reads are served by indexes', () => {
  /** The plans of the statements a call runs inside its functions, as auto_explain logs them. */
  async function plansOf(actor: Actor, sql: string, params: unknown[]): Promise<string> {
    const client = await pool.connect();
    const plans: string[] = [];
    const collect = (notice: { message?: string }) => plans.push(notice.message ?? '');
    client.on('notice', collect);
    try {
      // A pooled session may hold the functions' plans from an earlier call, made with sequential scans
      // allowed: PL/pgSQL keeps its plans for the session and a planner setting does not replace them.
      await client.query('discard plans');
      await client.query(`load 'auto_explain'`);
      await client.query('set auto_explain.log_min_duration = 0');
      await client.query('set auto_explain.log_nested_statements = on');
      await client.query('set client_min_messages = log');
      await client.query('set enable_seqscan = off');
      await client.query('begin');
      await client.query(`set local role authenticated`);
      await client.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: actor.role === 'authenticated' ? actor.userId : '', role: 'authenticated' }),
      ]);
      await client.query(sql, params);
      await client.query('rollback');
    } finally {
      client.removeListener('notice', collect);
      await client.query('reset all');
      client.release();
    }
    return plans.join('\n');
  }

  it("24h reads the primary key, the other ranges the hourly index; the ledger, the holdings index and the range's entries by date", async () => {
    const person = await createUser(pool);
    const actor = signedIn(person.id);
    expect(await plansOf(actor, `select * from public.price_history('bitcoin', '24h')`, [])).toContain(
      'price_snapshots_pkey',
    );
    for (const range of ['7d', '30d', 'all'])
      expect(await plansOf(actor, `select * from public.price_history('bitcoin', $1)`, [range])).toContain(
        'price_snapshots_hourly_idx',
      );
    const portfolioPlans = await plansOf(actor, `select * from public.portfolio_history('24h')`, []);
    // Both of the person's indexes serve the holdings (the planner picks either); the table is never scanned.
    expect(portfolioPlans).toContain('transactions_user_id_date_idx');
    expect(portfolioPlans).not.toMatch(/Seq Scan on transactions/);
  });
});
