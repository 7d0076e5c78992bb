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
  type CreatedUser,
} from '../support/db';

/**
 * Price alerts: a person is told, through the notifications centre and by e-mail, when a coin's price
 * recorded on the server goes above or below their price, or moves more than their percentage in 24 h; once
 * per crossing, re-armed only when the price is back more than 1 % on the other side.
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

let coin: string;
let minutesAgo: number;
beforeEach(() => {
  coin = `alert${randomUUID().slice(0, 8)}`;
  minutesAgo = 60;
});

/** The next price the market function records for the coin (a minute after the last). */
const tick = (price: string) => addPriceSnapshot(pool, coin, price, (minutesAgo -= 1));

const setAlert = (person: CreatedUser, direction: 'above' | 'below', price: number) =>
  queryAs(
    pool,
    signedIn(person.id),
    'insert into public.price_alerts (cryptocurrency, direction, price) values ($1, $2, $3)',
    [coin, direction, price],
  );

async function alertsTold(person: CreatedUser) {
  const { rows } = await pool.query<{ title: string; body: string }>(
    `select title, body from public.notifications where user_id = $1 and kind = 'price_alert.triggered'
     order by created_at, title`,
    [person.id],
  );
  return rows;
}

describe('price alerts', () => {
  it('fires once when the price crosses, not at every tick past it', async () => {
    const person = await createUser(pool);
    await tick('95');
    await setAlert(person, 'above', 100);
    await tick('99');
    await tick('101');
    await tick('102');
    await tick('100.5');
    // The witness: a below alert crossing after those ticks is told, and the above alert only once before it.
    await setAlert(person, 'below', 90);
    await tick('89');
    expect(await alertsTold(person)).toEqual([
      { title: `${coin} is above $100`, body: `The price of ${coin} is $101, above your alert at $100.` },
      { title: `${coin} is below $90`, body: `The price of ${coin} is $89, below your alert at $90.` },
    ]);
  });

  it('re-arms only once the price is back more than 1 % on the other side, then fires again', async () => {
    const person = await createUser(pool);
    await tick('95');
    await setAlert(person, 'above', 100);
    await tick('101');
    await tick('99.5');
    await tick('100.2');
    expect(await alertsTold(person)).toHaveLength(1);
    await tick('98');
    await tick('103');
    expect((await alertsTold(person)).map((told) => told.body)).toEqual([
      `The price of ${coin} is $101, above your alert at $100.`,
      `The price of ${coin} is $103, above your alert at $100.`,
    ]);
  });

  it('set while the price is already past, waits for the next crossing', async () => {
    const person = await createUser(pool);
    await tick('120');
    await setAlert(person, 'above', 100);
    await tick('121');
    await tick('90');
    await tick('105');
    expect((await alertsTold(person)).map((told) => told.body)).toEqual([
      `The price of ${coin} is $105, above your alert at $100.`,
    ]);
  });

  it('tells only its owner, whom nobody else can read it from', async () => {
    const person = await createUser(pool);
    const stranger = await createUser(pool);
    await tick('95');
    await setAlert(person, 'above', 100);
    await tick('101');
    expect(await alertsTold(stranger)).toEqual([]);
    const { rows } = await queryAs(
      pool,
      signedIn(stranger.id),
      'select id from public.price_alerts where cryptocurrency = $1',
      [coin],
    );
    expect(rows).toEqual([]);
  });

  it('refuses a bad alert with nothing kept, and a 21st one', async () => {
    const person = await createUser(pool);
    expect((await errorOf(setAlert(person, 'above', 0))).code).toBe('23514');
    expect(
      (
        await errorOf(
          queryAs(
            pool,
            signedIn(person.id),
            `insert into public.price_alerts (cryptocurrency, direction, price) values ($1, 'sideways', 5)`,
            [coin],
          ),
        )
      ).code,
    ).toBe('23514');
    // Nobody arms or fires an alert by hand.
    expect(
      (
        await errorOf(
          queryAs(
            pool,
            signedIn(person.id),
            `insert into public.price_alerts (cryptocurrency, direction, price, armed) values ($1, 'above', 5, false)`,
            [coin],
          ),
        )
      ).code,
    ).toBe('42501');
    for (let n = 1; n <= 20; n += 1) await setAlert(person, 'above', n);
    expect(await errorOf(setAlert(person, 'above', 21))).toEqual({
      code: 'P0001',
      message: 'A person can have at most 20 price alerts',
    });
  });

  it('is deleted by its owner and then fires no more', async () => {
    const person = await createUser(pool);
    await tick('95');
    await setAlert(person, 'above', 100);
    await queryAs(pool, signedIn(person.id), 'delete from public.price_alerts where cryptocurrency = $1', [
      coin,
    ]);
    await setAlert(person, 'below', 90);
    await tick('101');
    await tick('89');
    expect((await alertsTold(person)).map((told) => told.title)).toEqual([`${coin} is below $90`]);
  });
});

/** The price recorded 26 hours ago: what a move over 24 h is measured from in the tests below. */
const dayBefore = (price: string) => addPriceSnapshot(pool, coin, price, 26 * 60);

const setMoveAlert = (person: CreatedUser, percent: number) =>
  queryAs(
    pool,
    signedIn(person.id),
    `insert into public.price_alerts (cryptocurrency, direction, percent) values ($1, 'moves', $2)`,
    [coin, percent],
  );

describe('price alerts on a move in 24 h', () => {
  it('fires once when the price moves more than N % up, re-arms back inside the band, fires again down', async () => {
    const person = await createUser(pool);
    await dayBefore('100');
    await tick('101');
    await setMoveAlert(person, 5);
    await tick('103');
    await tick('106');
    await tick('107');
    // Not more than 1 % inside the band's top (103.95): still resting.
    await tick('104.5');
    await tick('106.5');
    await tick('103');
    await tick('94');
    expect(await alertsTold(person)).toEqual([
      {
        title: `${coin} moved up 6 % in 24 h`,
        body: `The price of ${coin} is $106, from $100 24 hours before: more than your alert's 5 %.`,
      },
      {
        title: `${coin} moved down 6 % in 24 h`,
        body: `The price of ${coin} is $94, from $100 24 hours before: more than your alert's 5 %.`,
      },
    ]);
  });

  it('measures from the price 24 h before each snapshot, not from when the alert was set', async () => {
    const person = await createUser(pool);
    await addPriceSnapshot(pool, coin, '50', 30 * 60);
    await dayBefore('100');
    await tick('100');
    await setMoveAlert(person, 10);
    // +12 % on the price 30 h before, +1.5 % on the day before's: not a move of more than 10 % in 24 h.
    await tick('101.5');
    await tick('111.25');
    expect((await alertsTold(person)).map((told) => told.title)).toEqual([`${coin} moved up 11.3 % in 24 h`]);
  });

  it('for a coin recorded for less than a day, measures from its first price', async () => {
    const person = await createUser(pool);
    await tick('200');
    await setMoveAlert(person, 2.5);
    await tick('196');
    await tick('194');
    expect((await alertsTold(person)).map((told) => told.title)).toEqual([`${coin} moved down 3 % in 24 h`]);
  });

  it('set while the price has already moved, waits for the next crossing', async () => {
    const person = await createUser(pool);
    await dayBefore('100');
    await tick('110');
    await setMoveAlert(person, 5);
    await tick('111');
    await tick('100');
    await tick('94.5');
    expect((await alertsTold(person)).map((told) => told.title)).toEqual([
      `${coin} moved down 5.5 % in 24 h`,
    ]);
  });

  it('refuses a move alert without a percentage, with a price, or of 0 %, and counts in the limit of 20', async () => {
    const person = await createUser(pool);
    const insert = (columns: string, values: string) =>
      errorOf(
        queryAs(
          pool,
          signedIn(person.id),
          `insert into public.price_alerts (cryptocurrency, direction, ${columns}) values ($1, ${values})`,
          [coin],
        ),
      );
    expect((await insert('price', `'moves', 100`)).code).toBe('23514');
    expect((await insert('price, percent', `'moves', 100, 5`)).code).toBe('23514');
    expect((await insert('percent', `'moves', 0`)).code).toBe('23514');
    expect((await insert('price, percent', `'above', 100, 5`)).code).toBe('23514');
    for (let n = 1; n <= 20; n += 1) await setMoveAlert(person, n);
    expect((await errorOf(setAlert(person, 'above', 1))).message).toBe(
      'A person can have at most 20 price alerts',
    );
    const { rows } = await pool.query(
      'select count(*)::int as kept from public.price_alerts where user_id = $1',
      [person.id],
    );
    expect(rows).toEqual([{ kept: 20 }]);
  });
});

describe('price alerts by e-mail', () => {
  async function mailsQueued(person: CreatedUser) {
    const { rows } = await pool.query<{
      subject: string;
      body: string;
      action_path: string;
      not_me_token: null;
    }>(
      `select subject, body, action_path, not_me_token from private.security_emails where user_id = $1
       order by created_at, subject`,
      [person.id],
    );
    return rows;
  }

  it('queues one e-mail per firing, with the notification’s words and no “this wasn’t me” link', async () => {
    const person = await createUser(pool);
    await tick('95');
    await setAlert(person, 'above', 100);
    await tick('101');
    await tick('102');
    await setAlert(person, 'below', 90);
    await tick('89');
    expect(await mailsQueued(person)).toEqual([
      {
        subject: `${coin} is above $100`,
        body: `The price of ${coin} is $101, above your alert at $100.`,
        action_path: '/user/price-alerts',
        not_me_token: null,
      },
      {
        subject: `${coin} is below $90`,
        body: `The price of ${coin} is $89, below your alert at $90.`,
        action_path: '/user/price-alerts',
        not_me_token: null,
      },
    ]);
  });

  it('mails nobody whose address is unconfirmed, and still notifies them', async () => {
    const person = await createUser(pool, { unconfirmedEmail: true });
    await tick('95');
    await setAlert(person, 'above', 100);
    await tick('101');
    expect(await alertsTold(person)).toHaveLength(1);
    expect(await mailsQueued(person)).toEqual([]);
  });
});
