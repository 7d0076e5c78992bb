import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadProject } from '../../devstack/src/project';
import { callApi } from '../support/api';
import { connect, createUser, queryAs, signedIn } from '../support/db';
import { moveBack } from '../support/time-travel';

/**
 * Recurring buys run through the run-recurring-buys function, which the schedule (Supabase Cron; the local
 * stack's `schedules`) calls every minute with the service-role key: it has the market function record this
 * minute's prices, then places the buys that are due at them.
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

function runRecurringBuys(token: string) {
  return callApi('/functions/v1/run-recurring-buys', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
}

describe('run-recurring-buys', () => {
  it('is scheduled every minute by npm start', async () => {
    const schedule = (await loadProject()).config.schedules?.['run-recurring-buys'];
    expect(schedule).toEqual({ function: 'run-recurring-buys', everySeconds: 60 });
  });

  it('places a due buy at the price the market function just recorded, plus the tolerance', async () => {
    const person = await createUser(pool, { deposit: 500 });
    const { rows } = await queryAs<{ id: string }>(
      pool,
      signedIn(person.id),
      `select id from public.create_recurring_buy('bitcoin', 100, 'daily', '09:00', 'Europe/Berlin',
                                                  gen_random_uuid())`,
    );
    await moveBack(
      pool,
      "update public.recurring_buys set next_run_at = next_run_at - interval '1 day' where id = $1",
      [rows[0]?.id],
    );
    const response = await runRecurringBuys(inject('serviceRoleKey'));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ runs: expect.any(Number) });
    const { rows: placed } = await pool.query<{ at_snapshot_plus_2_percent: boolean; status: string }>(
      `select request.status,
              request.limit_price = round(snapshot.price * 1.02, 2) as at_snapshot_plus_2_percent
       from public.recurring_buy_runs as run
       join public.buy_requests as request on request.id = run.buy_request_id
       cross join lateral (
         select price from public.price_snapshots
         where cryptocurrency = 'bitcoin' and captured_at <= run.ran_at
         order by captured_at desc limit 1
       ) as snapshot
       where run.recurring_buy_id = $1`,
      [rows[0]?.id],
    );
    expect(placed).toEqual([{ status: 'pending', at_snapshot_plus_2_percent: true }]);
  });

  it('runs every due schedule in one call, past the database’s batch of 1,000', async () => {
    const people = await Promise.all(Array.from({ length: 51 }, () => createUser(pool)));
    // 1,001 schedules due a minute ago, at most 20 a person; written as the owner, as time passing would.
    const { rows: due } = await pool.query<{ id: string }>(
      `insert into public.recurring_buys (user_id, cryptocurrency, amount, frequency, time_of_day, time_zone, next_run_at)
       select ($1::uuid[])[1 + n / 20], 'bitcoin', 10, 'daily', '09:00', 'UTC', now() - interval '1 minute'
       from generate_series(0, 1000) as n
       returning id`,
      [people.map((person) => person.id)],
    );
    const response = await runRecurringBuys(inject('serviceRoleKey'));
    expect(response.status).toBe(200);
    const { rows } = await pool.query<{ still_due: number; runs: number }>(
      `select count(*) filter (where next_run_at <= now())::integer as still_due,
              (select count(*) from public.recurring_buy_runs where recurring_buy_id = any($1))::integer as runs
       from public.recurring_buys where id = any($1)`,
      [due.map((schedule) => schedule.id)],
    );
    expect(rows).toEqual([{ still_due: 0, runs: 1001 }]);
  });

  it('refuses anyone calling with a key other than the service role', async () => {
    const response = await runRecurringBuys(inject('anonKey'));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'Only the scheduler runs the recurring buys' });
  });
});
