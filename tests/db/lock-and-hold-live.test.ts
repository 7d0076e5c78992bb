import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  anon,
  changePassword,
  connect,
  createUser,
  errorOf,
  onlyRow,
  queryAs,
  signedIn,
  signedInWithPasswordOnly,
  type Actor,
  type CreatedUser,
} from '../support/db';

/**
 * A lock ("this wasn't me") and a security hold change no request row, yet the admin queues show them on each
 * of the person's open rows and the person's pages show them too: their rows are broadcast on the person's
 * account topic and on admin:queues (supabase/schemas/22-broadcast-topics.sql), and the person reads their
 * own state with public.my_money_restrictions() (12-security-hold.sql).
 */
let pool: pg.Pool;
let admin: CreatedUser;

const withdrawalsLocked =
  'Withdrawals are locked because you reported a change you did not make. Contact support to unlock them.';
const tradingLocked =
  'Buying and selling are locked because you reported a change you did not make. Contact support to unlock them.';

/** The person pressed "this wasn't me" in a security e-mail (signed out: anon). */
async function reportNotMe(person: CreatedUser) {
  await pool.query(`select private.queue_security_email($1, 'New sign-in', 'New sign-in to your account.')`, [
    person.id,
  ]);
  const { rows } = await pool.query<{ token: string }>(
    `select not_me_token as token from private.security_emails where user_id = $1 order by created_at desc limit 1`,
    [person.id],
  );
  await queryAs(pool, anon, 'select public.report_not_me($1)', [onlyRow(rows).token]);
}

const endHold = (person: CreatedUser) =>
  queryAs(pool, signedIn(admin.id), 'select public.end_security_hold($1)', [person.id]);

interface Restrictions {
  withdrawals: string | null;
  buying_and_selling: string | null;
  on_hold: boolean;
}

async function restrictionsOf(actor: Actor): Promise<Restrictions[]> {
  const { rows } = await queryAs<Restrictions>(
    pool,
    actor,
    'select withdrawals, buying_and_selling, hold_until > now() as on_hold from public.my_money_restrictions()',
  );
  return rows;
}

interface Broadcast {
  topic: string;
  event: string;
  payload: {
    operation: string;
    record: Record<string, unknown> | null;
    old_record: Record<string, unknown> | null;
  };
}

/**
 * What `change` broadcast about the person's lock or hold, in order: on their account topic, and on
 * admin:queues in the same transactions (other tests write to admin:queues meanwhile).
 */
async function broadcastsOf(
  person: CreatedUser,
  change: () => Promise<unknown>,
  events: readonly string[] = ['withdrawal_locks', 'security_holds'],
): Promise<Broadcast[]> {
  const { rows: before } = await pool.query<{ at: string | null }>(
    'select max(inserted_at)::text as at from realtime.messages',
  );
  await change();
  const { rows } = await pool.query<Broadcast>(
    `with told as (
       select topic, event, payload, inserted_at from realtime.messages
        where inserted_at > coalesce($1::timestamp, '-infinity')
          and event = any($3::text[])
     )
     select topic, event, payload from told
      where topic = $2
         or (topic = 'admin:queues' and inserted_at in (select inserted_at from told where topic = $2))
      order by inserted_at, topic`,
    [before[0]?.at ?? null, `user:${person.id}:account`, events],
  );
  return rows;
}

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await createUser(pool, { admin: true });
});

afterAll(async () => {
  await pool?.end();
});

describe('a lock and a hold are told on the live topics', () => {
  it('a lock is told on the person’s account topic and on admin:queues, carrying none of its columns', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const told = await broadcastsOf(person, () => reportNotMe(person));
    expect(told.map(({ topic, event, payload }) => [topic, event, payload.operation])).toEqual([
      ['admin:queues', 'withdrawal_locks', 'INSERT'],
      [`user:${person.id}:account`, 'withdrawal_locks', 'INSERT'],
    ]);
    for (const { payload } of told) expect([payload.record, payload.old_record]).toEqual([{}, null]);
  });

  it('lifting the lock is told the same way', async () => {
    const person = await createUser(pool, { deposit: 100 });
    await reportNotMe(person);
    const told = await broadcastsOf(person, () => endHold(person));
    expect(told.map(({ topic, event, payload }) => [topic, event, payload.operation])).toEqual([
      ['admin:queues', 'withdrawal_locks', 'DELETE'],
      [`user:${person.id}:account`, 'withdrawal_locks', 'DELETE'],
    ]);
    for (const { payload } of told) expect([payload.record, payload.old_record]).toEqual([null, {}]);
  });

  it('a hold starting (a password change) and ending early are told, carrying none of its columns', async () => {
    const person = await createUser(pool);
    const started = await broadcastsOf(person, () => changePassword(pool, person.id));
    expect(started.map(({ topic, event }) => [topic, event])).toEqual([
      ['admin:queues', 'security_holds'],
      [`user:${person.id}:account`, 'security_holds'],
    ]);
    const ended = await broadcastsOf(person, () => endHold(person));
    expect(ended.map(({ topic, event, payload }) => [topic, event, payload.operation])).toEqual([
      ['admin:queues', 'security_holds', 'UPDATE'],
      [`user:${person.id}:account`, 'security_holds', 'UPDATE'],
    ]);
    for (const { payload } of [...started, ...ended]) {
      expect(JSON.stringify(payload)).not.toMatch(/changed_at|ended_early|password/);
    }
  });
});

describe('a new security hold length is told to everyone it moves', () => {
  const setHoldHours = (hours: number) =>
    pool.query('update public.transaction_limits set security_hold_hours = $1 where id', [hours]);

  it('people whose hold runs hear of it on their account topic, and admin:queues once, carrying no column', async () => {
    const held = await createUser(pool);
    const notHeld = await createUser(pool);
    await changePassword(pool, held.id);
    const { rows } = await pool.query<{ hours: number }>(
      'select security_hold_hours as hours from public.transaction_limits where id',
    );
    const hours = onlyRow(rows).hours;
    try {
      const told = await broadcastsOf(held, () => setHoldHours(hours + 24));
      expect(told.map(({ topic, event, payload }) => [topic, event, payload.operation])).toEqual([
        ['admin:queues', 'security_holds', 'UPDATE'],
        [`user:${held.id}:account`, 'security_holds', 'UPDATE'],
      ]);
      for (const { payload } of told) expect([payload.record, payload.old_record]).toEqual([{}, {}]);
      // Someone without a hold hears nothing of the next change, which the held person hears (the witness).
      const { rows: before } = await pool.query<{ at: string }>(
        'select max(inserted_at)::text as at from realtime.messages',
      );
      await setHoldHours(hours);
      const { rows: topics } = await pool.query<{ topic: string }>(
        `select topic from realtime.messages where inserted_at > $1::timestamp and topic = any($2::text[])`,
        [onlyRow(before).at, [`user:${held.id}:account`, `user:${notHeld.id}:account`]],
      );
      expect(topics.map(({ topic }) => topic)).toEqual([`user:${held.id}:account`]);
    } finally {
      await setHoldHours(hours);
    }
  });
});

describe('a freeze is told on the live topics', () => {
  const freezes = ['account_freezes'];
  // Never unfreeze_email_id: which e-mail will tell the end of the delay is not the reader's.
  const freezeColumns = [
    'freeze_id',
    'frozen_at',
    'frozen_by',
    'unfreeze_at',
    'unfreeze_delay_hours',
    'user_id',
  ];

  it('freezing and the two admins’ unfreeze are told on the person’s account topic and on admin:queues, selectable columns only', async () => {
    const person = await createUser(pool, { deposit: 100 });
    const secondAdmin = await createUser(pool, { admin: true });
    const frozen = await broadcastsOf(
      person,
      () => queryAs(pool, signedIn(person.id), 'select public.freeze_my_account()'),
      freezes,
    );
    // One transaction: its broadcasts share a moment, so their order is not told apart here.
    expect(frozen.map(({ topic, payload }) => `${topic} ${payload.operation}`).sort()).toEqual([
      'admin:queues INSERT',
      'admin:queues UPDATE',
      `user:${person.id}:account INSERT`,
      `user:${person.id}:account UPDATE`,
    ]);
    expect(frozen.find(({ payload }) => payload.operation === 'UPDATE')?.payload.record).toMatchObject({
      frozen_by: 'person',
      unfreeze_at: null,
    });
    const unfrozen = await broadcastsOf(
      person,
      async () => {
        await queryAs(pool, signedIn(admin.id), 'select public.unfreeze_by_admins($1)', [person.id]);
        await queryAs(pool, signedIn(secondAdmin.id), 'select public.unfreeze_by_admins($1)', [person.id]);
      },
      freezes,
    );
    expect(unfrozen.map(({ topic, payload }) => [topic, payload.operation])).toEqual([
      ['admin:queues', 'UPDATE'],
      [`user:${person.id}:account`, 'UPDATE'],
    ]);
    for (const { payload } of [...frozen, ...unfrozen]) {
      for (const part of [payload.record, payload.old_record]) {
        expect(Object.keys(part ?? {}).sort()).toEqual(part ? freezeColumns : []);
      }
    }
  });
});

describe('public.my_money_restrictions: the person’s own lock or hold', () => {
  it('says nothing while nothing is refused', async () => {
    const person = await createUser(pool, { deposit: 100 });
    expect(await restrictionsOf(signedIn(person.id))).toEqual([]);
  });

  it('shows a lock in the money gate’s words, and not once an admin lifts it', async () => {
    const person = await createUser(pool, { deposit: 100 });
    await reportNotMe(person);
    expect(await restrictionsOf(signedIn(person.id))).toEqual([
      { withdrawals: withdrawalsLocked, buying_and_selling: tradingLocked, on_hold: null },
    ]);
    await endHold(person);
    // The link also froze the account: what remains is the freeze, in its own words.
    const [left] = await restrictionsOf(signedIn(person.id));
    expect([left?.withdrawals, left?.buying_and_selling]).not.toContain(withdrawalsLocked);
    expect([left?.withdrawals, left?.buying_and_selling]).not.toContain(tradingLocked);
  });

  it('shows a security hold on withdrawals only, with its end, and nothing once an admin ends it', async () => {
    const person = await createUser(pool);
    await changePassword(pool, person.id);
    const [hold] = await restrictionsOf(signedIn(person.id));
    expect(hold?.withdrawals).toMatch(
      /^Withdrawals are on hold until .+ because your password was changed\. To end the hold sooner, contact support\.$/,
    );
    expect(hold).toMatchObject({ buying_and_selling: null, on_hold: true });
    await endHold(person);
    expect(await restrictionsOf(signedIn(person.id))).toEqual([]);
  });

  describe('who reads whose', () => {
    let locked: CreatedUser;
    let another: CreatedUser;
    beforeAll(async () => {
      locked = await createUser(pool, { twoFactor: true, deposit: 100 });
      another = await createUser(pool);
      await reportNotMe(locked);
    });

    it('anon cannot call it', async () => {
      expect(await errorOf(restrictionsOf(anon))).toMatchObject({ code: '42501' });
    });

    it('the owner reads their lock once their session entered a code, not at aal1', async () => {
      expect(await restrictionsOf(signedIn(locked.id))).toHaveLength(1);
      expect(await restrictionsOf(signedInWithPasswordOnly(locked.id))).toEqual([]);
    });

    it('another person, and an admin at aal1 or aal2, read only their own state: nothing of the owner’s', async () => {
      for (const actor of [signedIn(another.id), signedInWithPasswordOnly(admin.id), signedIn(admin.id)]) {
        expect(await restrictionsOf(actor)).toEqual([]);
      }
    });

    it('the service role cannot call it', async () => {
      const error = await errorOf(
        actAs(pool, { role: 'service_role' }, (db) =>
          db.query('select * from public.my_money_restrictions()'),
        ),
      );
      expect(error).toMatchObject({ code: '42501' });
    });
  });
});
