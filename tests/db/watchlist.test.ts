import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect, createUser, errorOf, queryAs, signedIn, type CreatedUser } from '../support/db';

/** public.watchlist: each person's starred coins, as the market table stars them through the API. */
let pool: pg.Pool;
let person: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  person = await createUser(pool);
});

afterAll(async () => {
  await pool.end();
});

const star = (coinId: string) =>
  queryAs<{ user_id: string }>(
    pool,
    signedIn(person.id),
    'insert into public.watchlist (coin_id) values ($1) returning user_id',
    [coinId],
  );

describe('watchlist', () => {
  it('files a star under the signed-in person without their id being sent', async () => {
    const { rows } = await star('ethereum');
    expect(rows).toEqual([{ user_id: person.id }]);
  });

  it('keeps one star per coin: starring again is refused as a duplicate and changes nothing', async () => {
    expect((await errorOf(star('ethereum'))).code).toBe('23505');
    const { rows } = await queryAs(pool, signedIn(person.id), 'select coin_id from public.watchlist');
    expect(rows).toEqual([{ coin_id: 'ethereum' }]);
  });

  it('refuses what is not a market-data id', async () => {
    for (const coinId of ['', 'Bitcoin', 'bit coin', '-bitcoin', 'x'.repeat(101)]) {
      expect((await errorOf(star(coinId))).code).toBe('23514');
    }
  });

  it('holds at most 100 coins, saying so', async () => {
    const crowded = await createUser(pool);
    await pool.query(
      `insert into public.watchlist (user_id, coin_id) select $1, 'coin-' || n from generate_series(1, 100) as n`,
      [crowded.id],
    );
    const refusal = await errorOf(
      queryAs(pool, signedIn(crowded.id), `insert into public.watchlist (coin_id) values ('bitcoin')`),
    );
    expect(refusal).toEqual({ code: 'P0001', message: 'A watchlist holds at most 100 coins' });
  });

  it('goes with the person when their account is deleted', async () => {
    await pool.query('delete from auth.users where id = $1', [person.id]);
    const { rows } = await pool.query('select 1 from public.watchlist where user_id = $1', [person.id]);
    expect(rows).toEqual([]);
  });
});
