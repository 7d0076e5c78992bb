import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  addCurrentPrice,
  connect,
  createUser,
  errorOf,
  queryAs,
  race,
  serviceRole,
  signedIn,
  signedInWithPasswordOnly,
  walletOf,
  type Actor,
  type CreatedUser,
} from '../support/db';
import { moveBack } from '../support/time-travel';

/**
 * Recurring buys: a person schedules X USD of a coin daily, weekly or monthly at a time in their time zone; the
 * scheduler (run_recurring_buys, service role) places each occurrence's buy request through the manual buy's
 * path (reservation, limits, money gate) once per occurrence, however often or late it is called, and records
 * with a reason each run it skips.
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

let coin: string;
beforeEach(() => {
  coin = `recurring${randomUUID().slice(0, 8)}`;
});

interface Schedule {
  id: string;
  next_run_at: Date | null;
}

interface ScheduleOptions {
  amount?: number;
  frequency?: string;
  timeOfDay?: string;
  timeZone?: string;
  dayOfWeek?: number | null;
  dayOfMonth?: number | null;
  priceCeiling?: number | null;
  idempotencyKey?: string;
  tolerancePercent?: number;
  expiryHours?: number;
}

function schedule(actor: Actor, options: ScheduleOptions = {}) {
  return queryAs<Schedule>(
    pool,
    actor,
    `select id, next_run_at from public.create_recurring_buy(
       cryptocurrency => $1, amount => $2, frequency => $3, time_of_day => $4, time_zone => $5,
       idempotency_key => $6, day_of_week => $7, day_of_month => $8, price_ceiling => $9,
       tolerance_percent => $10, expiry_hours => $11)`,
    [
      coin,
      options.amount ?? 100,
      options.frequency ?? 'daily',
      options.timeOfDay ?? '09:00',
      options.timeZone ?? 'Europe/Berlin',
      options.idempotencyKey ?? randomUUID(),
      options.dayOfWeek ?? null,
      options.dayOfMonth ?? null,
      options.priceCeiling ?? null,
      options.tolerancePercent ?? 2,
      options.expiryHours ?? 24,
    ],
  );
}

/** update_recurring_buy with every term, as the app's edit form sends them. */
function change(actor: Actor, id: string, options: ScheduleOptions = {}) {
  return queryAs<Schedule & { amount: string; frequency: string }>(
    pool,
    actor,
    `select id, next_run_at, amount::text, frequency from public.update_recurring_buy(
       recurring_buy_id => $1, cryptocurrency => $2, amount => $3, frequency => $4, time_of_day => $5,
       time_zone => $6, day_of_week => $7, day_of_month => $8, price_ceiling => $9, tolerance_percent => $10,
       expiry_hours => $11)`,
    [
      id,
      coin,
      options.amount ?? 100,
      options.frequency ?? 'daily',
      options.timeOfDay ?? '09:00',
      options.timeZone ?? 'Europe/Berlin',
      options.dayOfWeek ?? null,
      options.dayOfMonth ?? null,
      options.priceCeiling ?? null,
      options.tolerancePercent ?? 2,
      options.expiryHours ?? 24,
    ],
  );
}

async function scheduleFor(person: CreatedUser, options: ScheduleOptions = {}): Promise<Schedule> {
  const { rows } = await schedule(signedIn(person.id), options);
  const created = rows[0];
  if (!created) throw new Error('no schedule');
  return created;
}

/** The scheduler's clock is `by` past the schedule's next occurrence: the occurrence moves back, nothing else. */
const dueSince = (schedule: Schedule, by = '1 day') =>
  moveBack(pool, 'update public.recurring_buys set next_run_at = next_run_at - $2::interval where id = $1', [
    schedule.id,
    by,
  ]);

/** The schedule's next occurrence was a minute ago, whenever it would have been. */
const dueNow = (schedule: Schedule) =>
  moveBack(pool, "update public.recurring_buys set next_run_at = now() - interval '1 minute' where id = $1", [
    schedule.id,
  ]);

const runScheduler = async () => {
  const { rows } = await queryAs<{ runs: number }>(
    pool,
    serviceRole,
    'select public.run_recurring_buys() as runs',
  );
  return rows[0]?.runs;
};

async function runsOf(schedule: Schedule) {
  const { rows } = await pool.query<{ placed: boolean; skip_reason: string | null }>(
    `select buy_request_id is not null as placed, skip_reason from public.recurring_buy_runs
     where recurring_buy_id = $1 order by scheduled_for`,
    [schedule.id],
  );
  return rows;
}

async function buyRequestsOf(person: CreatedUser) {
  const { rows } = await pool.query<{ amount: string; limit_price: string; status: string; hours: string }>(
    `select amount::text, limit_price::text, status,
            round(extract(epoch from expires_at - now()) / 3600)::text as hours
     from public.buy_requests where user_id = $1`,
    [person.id],
  );
  return rows;
}

async function notificationsOf(person: CreatedUser) {
  const { rows } = await pool.query<{ kind: string; body: string }>(
    `select kind, body from public.notifications where user_id = $1 and kind like 'recurring_buy.%'
     order by created_at`,
    [person.id],
  );
  return rows;
}

/** Resolves once a statement of another session waits on a lock the holder's transaction has. */
async function untilBlockedBy(holder: pg.PoolClient) {
  const { rows } = await holder.query<{ pid: number }>('select pg_backend_pid() as pid');
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { rows: waiting } = await pool.query<{ blocked: boolean }>(
      'select exists (select from pg_stat_activity where $1 = any (pg_blocking_pids(pid))) as blocked',
      [rows[0]?.pid],
    );
    if (waiting[0]?.blocked) return;
    if (Date.now() > deadline) throw new Error('no statement waited on the lock');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the next occurrence', () => {
  const next = async (
    frequency: string,
    timeOfDay: string,
    timeZone: string,
    after: string,
    day: { week?: number; month?: number } = {},
  ) => {
    const { rows } = await pool.query<{ next: string }>(
      `select to_char(private.next_recurring_run($1, $2, $3, $4, $5, $6) at time zone 'UTC',
                      'YYYY-MM-DD HH24:MI"Z"') as next`,
      [frequency, day.week ?? null, day.month ?? null, timeOfDay, timeZone, after],
    );
    return rows[0]?.next;
  };

  it('keeps 09:00 in Berlin when the clocks spring forward: 08:00 UTC, then 07:00 UTC', async () => {
    expect(await next('daily', '09:00', 'Europe/Berlin', '2026-03-28T07:00:00Z')).toBe('2026-03-28 08:00Z');
    expect(await next('daily', '09:00', 'Europe/Berlin', '2026-03-28T08:00:00Z')).toBe('2026-03-29 07:00Z');
  });

  it('keeps 09:00 in Berlin when the clocks fall back: 07:00 UTC, then 08:00 UTC', async () => {
    expect(await next('daily', '09:00', 'Europe/Berlin', '2026-10-24T07:00:00Z')).toBe('2026-10-25 08:00Z');
  });

  it('runs a time the spring-forward night skips once, an hour later (03:30 summer time)', async () => {
    expect(await next('daily', '02:30', 'Europe/Berlin', '2026-03-28T01:30:00Z')).toBe('2026-03-29 01:30Z');
    expect(await next('daily', '02:30', 'Europe/Berlin', '2026-03-29T01:30:00Z')).toBe('2026-03-30 00:30Z');
  });

  it('runs a time the fall-back night has twice only once', async () => {
    // 02:30 on 25 October happens at 00:30 UTC (summer time) and at 01:30 UTC (winter time).
    expect(await next('daily', '02:30', 'Europe/Berlin', '2026-10-24T00:30:00Z')).toBe('2026-10-25 01:30Z');
    expect(await next('daily', '02:30', 'Europe/Berlin', '2026-10-25T01:30:00Z')).toBe('2026-10-26 01:30Z');
  });

  it('falls on the last day of a month shorter than the chosen day, and back on the 31st after', async () => {
    expect(await next('monthly', '09:00', 'UTC', '2027-01-31T09:00:00Z', { month: 31 })).toBe(
      '2027-02-28 09:00Z',
    );
    expect(await next('monthly', '09:00', 'UTC', '2027-02-28T09:00:00Z', { month: 31 })).toBe(
      '2027-03-31 09:00Z',
    );
    expect(await next('monthly', '09:00', 'UTC', '2027-03-31T09:00:00Z', { month: 31 })).toBe(
      '2027-04-30 09:00Z',
    );
    expect(await next('monthly', '09:00', 'UTC', '2028-01-31T09:00:00Z', { month: 30 })).toBe(
      '2028-02-29 09:00Z',
    );
  });

  it('twice a month: the 1st and the 15th at the chosen time, in the person’s zone', async () => {
    // Thursday 26 November 2026, 20:00 UTC; 09:00 in Berlin is 08:00 UTC in winter.
    expect(await next('twice_monthly', '09:00', 'Europe/Berlin', '2026-11-26T20:00:00Z')).toBe(
      '2026-12-01 08:00Z',
    );
    expect(await next('twice_monthly', '09:00', 'Europe/Berlin', '2026-12-01T08:00:00Z')).toBe(
      '2026-12-15 08:00Z',
    );
    expect(await next('twice_monthly', '09:00', 'Europe/Berlin', '2026-12-15T08:00:00Z')).toBe(
      '2027-01-01 08:00Z',
    );
    // 00:30 on the 1st in Tokyo is still the 31st in UTC.
    expect(await next('twice_monthly', '00:30', 'Asia/Tokyo', '2027-01-15T00:00:00Z')).toBe(
      '2027-01-31 15:30Z',
    );
  });

  it('twice a month across a clock change: 08:00 in New York before and after 14 March 2027', async () => {
    // Clocks spring forward on Sunday 14 March 2027: 08:00 is 13:00 UTC on the 1st, 12:00 UTC on the 15th.
    expect(await next('twice_monthly', '08:00', 'America/New_York', '2027-02-20T00:00:00Z')).toBe(
      '2027-03-01 13:00Z',
    );
    expect(await next('twice_monthly', '08:00', 'America/New_York', '2027-03-01T13:00:00Z')).toBe(
      '2027-03-15 12:00Z',
    );
  });

  it('weekly: the chosen weekday at the chosen time, in the person’s zone', async () => {
    // Thursday 26 November 2026, 20:00 UTC; Monday 08:00 in New York is 13:00 UTC (winter time).
    expect(await next('weekly', '08:00', 'America/New_York', '2026-11-26T20:00:00Z', { week: 1 })).toBe(
      '2026-11-30 13:00Z',
    );
  });
});

describe('scheduling a recurring buy', () => {
  it('starts at the next occurrence and, asked again with the same key, returns the same schedule', async () => {
    const person = await createUser(pool);
    const key = randomUUID();
    const first = await scheduleFor(person, { idempotencyKey: key });
    const again = await scheduleFor(person, { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    const startsIn = (first.next_run_at?.getTime() ?? 0) - Date.now();
    expect(startsIn).toBeGreaterThan(0);
    expect(startsIn).toBeLessThanOrEqual(86_400_000);
    const { rows } = await pool.query('select 1 from public.recurring_buys where user_id = $1', [person.id]);
    expect(rows).toHaveLength(1);
  });

  it('refuses what cannot run, with a clear message, and keeps nothing', async () => {
    const person = await createUser(pool);
    const actor = signedIn(person.id);
    expect((await errorOf(schedule(actor, { timeZone: 'Mars/Olympus' }))).message).toBe(
      'Unknown time zone: Mars/Olympus',
    );
    expect((await errorOf(schedule(actor, { frequency: 'weekly' }))).message).toBe(
      'Choose the day of the week',
    );
    expect((await errorOf(schedule(actor, { frequency: 'monthly', dayOfMonth: 32 }))).message).toBe(
      'Choose a day of the month from 1 to 31',
    );
    expect((await errorOf(schedule(actor, { frequency: 'hourly' }))).message).toBe(
      'Choose daily, weekly, twice a month or monthly',
    );
    expect((await errorOf(schedule(actor, { amount: -5 }))).code).toBe('P0001');
    expect((await errorOf(schedule(actor, { priceCeiling: 0 }))).message).toBe(
      'Price ceiling must be greater than 0',
    );
    const { rows } = await pool.query('select 1 from public.recurring_buys where user_id = $1', [person.id]);
    expect(rows).toEqual([]);
  });

  it('needs a code from a person with two-factor authentication, as a buy does', async () => {
    const person = await createUser(pool, { twoFactor: true });
    const refusal = await errorOf(schedule(signedInWithPasswordOnly(person.id)));
    expect(refusal).toEqual({
      code: '42501',
      message: 'Enter a code from your authenticator app to schedule a buy',
    });
    await scheduleFor(person);
  });

  it('is refused while the account is frozen', async () => {
    const person = await createUser(pool);
    await pool.query(
      `insert into public.account_freezes (user_id, freeze_id, frozen_at, frozen_by)
       values ($1, gen_random_uuid(), now(), 'person')`,
      [person.id],
    );
    expect((await errorOf(schedule(signedIn(person.id)))).message).toMatch(/^Your account is frozen/);
  });

  it('is refused to anyone signed out, and the scheduler is the service role’s alone', async () => {
    expect((await errorOf(schedule({ role: 'anon' }))).code).toBe('42501');
    const person = await createUser(pool);
    const refusal = await errorOf(queryAs(pool, signedIn(person.id), 'select public.run_recurring_buys()'));
    expect(refusal.code).toBe('42501');
  });

  it('holds at most 20 schedules per person', async () => {
    const person = await createUser(pool);
    for (let n = 0; n < 20; n += 1) await scheduleFor(person);
    expect((await errorOf(schedule(signedIn(person.id)))).message).toBe(
      'A person can have at most 20 recurring buys',
    );
  });
});

describe('a run', () => {
  it('places an ordinary pending buy at the price now plus 2 %, reserving its USD, and notifies', async () => {
    const person = await createUser(pool, { deposit: 500 });
    await addCurrentPrice(pool, coin, 200);
    const daily = await scheduleFor(person);
    await dueSince(daily);
    await runScheduler();
    expect(await buyRequestsOf(person)).toEqual([
      { amount: '100', limit_price: '204.00', status: 'pending', hours: '24' },
    ]);
    expect(await walletOf(pool, person.id)).toMatchObject({ balance: 500, reserved: 100, available: 400 });
    expect(await runsOf(daily)).toEqual([{ placed: true, skip_reason: null }]);
    expect(await notificationsOf(person)).toEqual([
      {
        kind: 'recurring_buy.placed',
        body: `Your recurring buy of $100 of ${coin} is waiting for approval, at most $204 per coin.`,
      },
    ]);
    const { rows } = await pool.query<{ next: boolean }>(
      `select next_run_at > now() as next from public.recurring_buys where id = $1`,
      [daily.id],
    );
    expect(rows).toEqual([{ next: true }]);
  });

  it('is marked recurring in the admin buy queue; the person’s own buy is not', async () => {
    const person = await createUser(pool, { deposit: 500 });
    const admin = await createUser(pool, { admin: true });
    await addCurrentPrice(pool, coin, 200);
    const daily = await scheduleFor(person);
    await dueSince(daily);
    await runScheduler();
    await queryAs(pool, signedIn(person.id), 'select public.create_buy_request($1, 50, $2)', [
      coin,
      randomUUID(),
    ]);
    const { rows } = await queryAs<{ amount: string; recurring: boolean }>(
      pool,
      signedIn(admin.id),
      'select amount::text, recurring from public.buy_requests_with_user where user_id = $1 order by recurring',
      [person.id],
    );
    expect(rows).toEqual([
      { amount: '50', recurring: false },
      { amount: '100', recurring: true },
    ]);
  });

  it('runs a person with two-factor authentication without a session: the schedule is the consent', async () => {
    const person = await createUser(pool, { twoFactor: true, deposit: 500 });
    await addCurrentPrice(pool, coin, 200);
    const daily = await scheduleFor(person);
    await dueSince(daily);
    await runScheduler();
    expect(await runsOf(daily)).toEqual([{ placed: true, skip_reason: null }]);
  });

  it('is not run twice: a repeated call, two schedulers at once, or an occurrence brought back', async () => {
    const person = await createUser(pool, { deposit: 500 });
    await addCurrentPrice(pool, coin, 200);
    const daily = await scheduleFor(person);
    await dueSince(daily);
    const { rows: due } = await pool.query<{ at: string }>(
      'select next_run_at::text as at from public.recurring_buys where id = $1',
      [daily.id],
    );
    await race([runScheduler, runScheduler, runScheduler]);
    await runScheduler();
    // A scheduler working from a stale view brings the same occurrence back: the run key refuses it.
    await moveBack(pool, 'update public.recurring_buys set next_run_at = $2::timestamptz where id = $1', [
      daily.id,
      due[0]?.at,
    ]);
    await runScheduler();
    expect(await buyRequestsOf(person)).toHaveLength(1);
    expect(await runsOf(daily)).toHaveLength(1);
    expect(await notificationsOf(person)).toHaveLength(1);
    expect(await walletOf(pool, person.id)).toMatchObject({ reserved: 100 });
  });

  it('late by a day, buys once for the latest occurrence and records the one it missed', async () => {
    const person = await createUser(pool, { deposit: 500 });
    await addCurrentPrice(pool, coin, 200);
    const daily = await scheduleFor(person);
    await dueSince(daily, '2 days');
    await runScheduler();
    expect(await buyRequestsOf(person)).toHaveLength(1);
    expect(await runsOf(daily)).toEqual([
      {
        placed: false,
        skip_reason: 'Missed: the scheduler did not run in time and a later run took its place',
      },
      { placed: true, skip_reason: null },
    ]);
  });

  it('a weekly buy late by a day still runs, once', async () => {
    const person = await createUser(pool, { deposit: 500 });
    await addCurrentPrice(pool, coin, 200);
    const weekly = await scheduleFor(person, { frequency: 'weekly', dayOfWeek: 1 });
    await moveBack(
      pool,
      "update public.recurring_buys set next_run_at = now() - interval '1 day' where id = $1",
      [weekly.id],
    );
    await runScheduler();
    expect(await runsOf(weekly)).toEqual([{ placed: true, skip_reason: null }]);
  });

  it('is skipped, with the reason recorded and notified, when the balance is short; nothing moves', async () => {
    const person = await createUser(pool, { deposit: 50 });
    await addCurrentPrice(pool, coin, 200);
    const daily = await scheduleFor(person);
    await dueSince(daily);
    await runScheduler();
    expect(await buyRequestsOf(person)).toEqual([]);
    expect(await walletOf(pool, person.id)).toMatchObject({ balance: 50, reserved: 0, available: 50 });
    expect(await runsOf(daily)).toEqual([
      { placed: false, skip_reason: 'Insufficient balance (including all pending requests)' },
    ]);
    expect(await notificationsOf(person)).toEqual([
      {
        kind: 'recurring_buy.skipped',
        body: `Your recurring buy of $100 of ${coin} was skipped. Insufficient balance (including all pending requests)`,
      },
    ]);
  });

  it('is skipped when the account is frozen or locked after scheduling', async () => {
    const frozen = await createUser(pool, { deposit: 500 });
    const locked = await createUser(pool, { deposit: 500 });
    await addCurrentPrice(pool, coin, 200);
    const frozenDaily = await scheduleFor(frozen);
    const lockedDaily = await scheduleFor(locked);
    await pool.query(
      `insert into public.account_freezes (user_id, freeze_id, frozen_at, frozen_by)
       values ($1, gen_random_uuid(), now(), 'person')`,
      [frozen.id],
    );
    await pool.query('insert into private.withdrawal_locks (user_id) values ($1)', [locked.id]);
    await dueSince(frozenDaily);
    await dueSince(lockedDaily);
    await runScheduler();
    expect(await buyRequestsOf(frozen)).toEqual([]);
    expect(await buyRequestsOf(locked)).toEqual([]);
    expect((await runsOf(frozenDaily))[0]?.skip_reason).toMatch(/^Your account is frozen/);
    expect((await runsOf(lockedDaily))[0]?.skip_reason).toMatch(/^Buying and selling are locked/);
  });

  it('is skipped when the price is above the ceiling, or no fresh price exists', async () => {
    const person = await createUser(pool, { deposit: 500 });
    await addCurrentPrice(pool, coin, 200);
    const capped = await scheduleFor(person, { priceCeiling: 150 });
    await dueSince(capped);
    await runScheduler();
    expect(await runsOf(capped)).toEqual([
      { placed: false, skip_reason: `The price of ${coin} was $200, above your ceiling of $150` },
    ]);
    coin = `unpriced${randomUUID().slice(0, 8)}`;
    const unpriced = await scheduleFor(person);
    await dueSince(unpriced);
    await runScheduler();
    expect(await runsOf(unpriced)).toEqual([
      { placed: false, skip_reason: `No current price of ${coin}: market data is late` },
    ]);
    expect(await buyRequestsOf(person)).toEqual([]);
  });

  it('never runs while paused; resuming starts from the next occurrence, not the missed ones', async () => {
    const person = await createUser(pool, { deposit: 500 });
    await addCurrentPrice(pool, coin, 200);
    const daily = await scheduleFor(person);
    const pause = (paused: boolean) =>
      queryAs<{ next_run_at: Date | null }>(
        pool,
        signedIn(person.id),
        'select next_run_at from public.set_recurring_buy_paused($1, $2)',
        [daily.id, paused],
      );
    expect((await pause(true)).rows).toEqual([{ next_run_at: null }]);
    await runScheduler();
    const { rows } = await pause(false);
    expect(rows[0]?.next_run_at?.getTime()).toBeGreaterThan(Date.now());
    expect(await runsOf(daily)).toEqual([]);
    // Another person cannot pause it.
    const stranger = await createUser(pool);
    const refusal = await errorOf(
      queryAs(pool, signedIn(stranger.id), 'select public.set_recurring_buy_paused($1, true)', [daily.id]),
    );
    expect(refusal.message).toBe('No such recurring buy');
  });

  it('twice a month, runs once for its occurrence and moves to the 1st or the 15th', async () => {
    const person = await createUser(pool, { deposit: 500 });
    await addCurrentPrice(pool, coin, 200);
    const twiceMonthly = await scheduleFor(person, { frequency: 'twice_monthly', timeZone: 'Asia/Tokyo' });
    await dueNow(twiceMonthly);
    await runScheduler();
    await runScheduler();
    expect(await runsOf(twiceMonthly)).toEqual([{ placed: true, skip_reason: null }]);
    const { rows } = await pool.query<{ day: number; time: string }>(
      `select extract(day from next_run_at at time zone 'Asia/Tokyo')::int as day,
              to_char(next_run_at at time zone 'Asia/Tokyo', 'HH24:MI') as time
       from public.recurring_buys where id = $1`,
      [twiceMonthly.id],
    );
    expect([1, 15]).toContain(rows[0]?.day);
    expect(rows[0]?.time).toBe('09:00');
  });

  it('shares the balance among a person’s runs of one call, in order: the third of 100 USD is short', async () => {
    const person = await createUser(pool, { deposit: 250 });
    await addCurrentPrice(pool, coin, 200);
    const schedules = [await scheduleFor(person), await scheduleFor(person), await scheduleFor(person)];
    for (const each of schedules) await dueSince(each);
    await runScheduler();
    const outcomes = await Promise.all(schedules.map(runsOf));
    expect(outcomes.flat().filter((run) => run.placed)).toHaveLength(2);
    expect(outcomes.flat().filter((run) => !run.placed)).toEqual([
      { placed: false, skip_reason: 'Insufficient balance (including all pending requests)' },
    ]);
    expect(await walletOf(pool, person.id)).toMatchObject({ balance: 250, reserved: 200, available: 50 });
  });

  it('frozen between the checks and the writes, rolls the call back; the next call records the skip', async () => {
    const frozen = await createUser(pool, { deposit: 500 });
    const other = await createUser(pool, { deposit: 500 });
    await addCurrentPrice(pool, coin, 200);
    const frozenDaily = await scheduleFor(frozen);
    const otherDaily = await scheduleFor(other);
    await dueSince(frozenDaily);
    await dueSince(otherDaily);
    // The runs' table locked holds the scheduler after its checks, at its writes, while the freeze commits.
    const operator = await pool.connect();
    let scheduling: Promise<{ code: string; message: string }> | undefined;
    try {
      await operator.query('begin');
      await operator.query('lock table public.recurring_buy_runs in share mode');
      scheduling = errorOf(runScheduler());
      await untilBlockedBy(operator);
      await operator.query(
        `insert into public.account_freezes (user_id, freeze_id, frozen_at, frozen_by)
         values ($1, gen_random_uuid(), now(), 'person')`,
        [frozen.id],
      );
      await operator.query('commit');
    } finally {
      operator.release();
    }
    expect((await scheduling).message).toMatch(/frozen/);
    // Nothing of the call stays, the other person's run included: both are due again.
    for (const person of [frozen, other]) {
      expect(await buyRequestsOf(person)).toEqual([]);
      expect(await notificationsOf(person)).toEqual([]);
      expect(await walletOf(pool, person.id)).toMatchObject({ balance: 500, reserved: 0 });
    }
    expect(await runsOf(frozenDaily)).toEqual([]);
    expect(await runsOf(otherDaily)).toEqual([]);
    await runScheduler();
    expect((await runsOf(frozenDaily))[0]?.skip_reason).toMatch(/^Your account is frozen/);
    expect(await buyRequestsOf(frozen)).toEqual([]);
    expect(await runsOf(otherDaily)).toEqual([{ placed: true, skip_reason: null }]);
    expect(await walletOf(pool, other.id)).toMatchObject({ reserved: 100 });
  });

  it('deleted, it runs no more, and the requests it placed stay', async () => {
    const person = await createUser(pool, { deposit: 500 });
    await addCurrentPrice(pool, coin, 200);
    const daily = await scheduleFor(person);
    await dueSince(daily);
    await runScheduler();
    const { rowCount } = await queryAs(
      pool,
      signedIn(person.id),
      'delete from public.recurring_buys where id = $1',
      [daily.id],
    );
    expect(rowCount).toBe(1);
    expect(await buyRequestsOf(person)).toHaveLength(1);
  });
});

describe('changing a recurring buy', () => {
  it('changes amount, coin, cadence, tolerance, ceiling and expiry from the next run; the runs stay', async () => {
    const person = await createUser(pool, { deposit: 500 });
    await addCurrentPrice(pool, coin, 200);
    const daily = await scheduleFor(person);
    await dueSince(daily);
    await runScheduler();
    const firstCoin = coin;
    coin = `changed${randomUUID().slice(0, 8)}`;
    await addCurrentPrice(pool, coin, 100);
    const { rows } = await change(signedIn(person.id), daily.id, {
      amount: 50,
      frequency: 'weekly',
      dayOfWeek: 1,
      tolerancePercent: 5,
      priceCeiling: 1000,
      expiryHours: 48,
    });
    expect(rows[0]).toMatchObject({ id: daily.id, amount: '50', frequency: 'weekly' });
    expect(rows[0]?.next_run_at?.getTime()).toBeGreaterThan(Date.now());
    // The run before the change stays as it was.
    expect(await runsOf(daily)).toEqual([{ placed: true, skip_reason: null }]);
    await dueNow(daily);
    await runScheduler();
    const { rows: requests } = await pool.query<{
      cryptocurrency: string;
      amount: string;
      limit_price: string;
      hours: string;
    }>(
      `select cryptocurrency, amount::text, limit_price::text,
              round(extract(epoch from expires_at - now()) / 3600)::text as hours
       from public.buy_requests where user_id = $1 order by date, amount desc`,
      [person.id],
    );
    expect(requests).toEqual([
      { cryptocurrency: firstCoin, amount: '100', limit_price: '204.00', hours: '24' },
      { cryptocurrency: coin, amount: '50', limit_price: '105.00', hours: '48' },
    ]);
    expect(await runsOf(daily)).toHaveLength(2);
  });

  it('refuses what creating refuses, and another person’s schedule; nothing changes', async () => {
    const person = await createUser(pool, { twoFactor: true });
    const daily = await scheduleFor(person);
    const actor = signedIn(person.id);
    expect((await errorOf(change(actor, daily.id, { timeZone: 'Mars/Olympus' }))).message).toBe(
      'Unknown time zone: Mars/Olympus',
    );
    expect(
      (await errorOf(change(actor, daily.id, { frequency: 'twice_monthly', expiryHours: 0 }))).message,
    ).toBe('Each buy must expire after 1 hour to 30 days (720 hours)');
    expect((await errorOf(change(actor, daily.id, { tolerancePercent: 11 }))).message).toBe(
      'Price tolerance must be over 0 % and at most 10 %',
    );
    expect(await errorOf(change(signedInWithPasswordOnly(person.id), daily.id, { amount: 50 }))).toEqual({
      code: '42501',
      message: 'Enter a code from your authenticator app to change a recurring buy',
    });
    const stranger = await createUser(pool);
    expect((await errorOf(change(signedIn(stranger.id), daily.id, { amount: 50 }))).message).toBe(
      'No such recurring buy',
    );
    await pool.query(
      `insert into public.account_freezes (user_id, freeze_id, frozen_at, frozen_by)
       values ($1, gen_random_uuid(), now(), 'person')`,
      [person.id],
    );
    expect((await errorOf(change(actor, daily.id, { amount: 50 }))).message).toMatch(
      /^Your account is frozen/,
    );
    const { rows } = await pool.query(
      'select amount::text, frequency, time_zone, tolerance_percent::text, expiry_hours from public.recurring_buys where id = $1',
      [daily.id],
    );
    expect(rows).toEqual([
      {
        amount: '100',
        frequency: 'daily',
        time_zone: 'Europe/Berlin',
        tolerance_percent: '2',
        expiry_hours: 24,
      },
    ]);
  });

  it('paused, stays paused with its new terms', async () => {
    const person = await createUser(pool);
    const daily = await scheduleFor(person);
    await queryAs(pool, signedIn(person.id), 'select public.set_recurring_buy_paused($1, true)', [daily.id]);
    const { rows } = await change(signedIn(person.id), daily.id, { frequency: 'twice_monthly', amount: 75 });
    expect(rows).toEqual([{ id: daily.id, next_run_at: null, amount: '75', frequency: 'twice_monthly' }]);
  });
});
