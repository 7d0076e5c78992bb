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
 * Price alerts: a person is told, through the notifications centre, when a coin's price recorded on the
 * server goes above or below their price; once per crossing, re-armed only when the price is back more than
 * 1 % on the other side.
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
