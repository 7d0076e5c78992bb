import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  changePassword,
  anon,
  connect,
  createUser,
  createWithdrawRequest,
  errorOf,
  queryAs,
  serviceRole,
  signedIn,
  type CreatedUser,
} from '../support/db';

/**
 * The withdrawal hold after a security change: Auth's own writes (as GoTrue makes them) start it, a
 * withdrawal during it is refused whoever inserts it, and only an admin ends it early.
 */
let pool: pg.Pool;
let admin: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await createUser(pool, { admin: true });
});

afterAll(async () => {
  await pool.end();
});

const personWithMoney = () => createUser(pool, { deposit: 1_000 });

function withdraw(person: CreatedUser) {
  return createWithdrawRequest(pool, signedIn(person.id), { amount: 50 });
}

/** GoTrue's enrolment (an unverified factor), then its `verify`, which makes it verified. */
async function enrolFactor(person: CreatedUser, { verify }: { verify: boolean }): Promise<string> {
  const factorId = randomUUID();
  await pool.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
     values ($1, $2, $3, 'totp', 'unverified', now(), now(), 'SECRET')`,
    [factorId, person.id, `phone ${factorId}`],
  );
  if (verify) {
    await pool.query(`update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`, [
      factorId,
    ]);
  }
  return factorId;
}

/** Moves the person's latest security change `hours` into the past, as if that much time had gone by. */
async function hoursPass(person: CreatedUser, hours: number) {
  await pool.query(
    `update private.security_holds set changed_at = changed_at - $2 * interval '1 hour' where user_id = $1`,
    [person.id, hours],
  );
}

const holdMessage = (reason: string) =>
  new RegExp(
    `^Withdrawals are on hold until \\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2} UTC because ${reason}\\. ` +
      'To end the hold sooner, contact support\\.$',
  );

describe('a withdrawal during the hold', () => {
  it('is refused for 24 hours after a password change (a reset link included), saying until when and why', async () => {
    const person = await personWithMoney();
    await changePassword(pool, person.id);
    const refusal = await errorOf(withdraw(person));
    expect(refusal).toMatchObject({
      code: 'P0001',
      message: expect.stringMatching(holdMessage('your password was changed')),
    });

    // The hold ends 24 hours after the change: the time named is that one.
    const { rows } = await pool.query<{ until: string }>(
      `select to_char((changed_at + interval '24 hours') at time zone 'UTC', 'FMDD Mon YYYY, HH24:MI "UTC"') as until
       from private.security_holds where user_id = $1`,
      [person.id],
    );
    expect(refusal.message).toContain(`until ${rows[0]?.until} because`);

    await hoursPass(person, 23.9);
    expect((await errorOf(withdraw(person))).code).toBe('P0001');
    await hoursPass(person, 0.2);
    const { rows: created } = await withdraw(person);
    expect(created).toHaveLength(1);
  });

  it('is refused after an e-mail change', async () => {
    const person = await personWithMoney();
    await pool.query(`update auth.users set email = $2 where id = $1`, [person.id, `moved-${person.email}`]);
    expect((await errorOf(withdraw(person))).message).toMatch(holdMessage('your e-mail address was changed'));
  });

  it('is refused after a second factor is verified, and again after it is removed', async () => {
    const person = await personWithMoney();
    const factorId = await enrolFactor(person, { verify: true });
    expect((await errorOf(withdraw(person))).message).toMatch(
      holdMessage('two-factor authentication was added to your account'),
    );
    await hoursPass(person, 25);
    expect(await withdraw(person)).toMatchObject({ rowCount: 1 });

    await pool.query('delete from auth.mfa_factors where id = $1', [factorId]);
    expect((await errorOf(withdraw(person))).message).toMatch(
      holdMessage('two-factor authentication was removed from your account'),
    );
  });

  it('is refused even when inserted directly, not through create_withdraw_request', async () => {
    const person = await personWithMoney();
    await changePassword(pool, person.id);
    const direct = pool.query(
      `insert into public.withdraw_requests (user_id, amount, withdraw_method) values ($1, 10, 'bank')`,
      [person.id],
    );
    expect((await errorOf(direct)).message).toMatch(holdMessage('your password was changed'));
  });

  it('lasts as many hours as the settings say', async () => {
    const person = await personWithMoney();
    await changePassword(pool, person.id);
    await hoursPass(person, 2);
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('update public.transaction_limits set security_hold_hours = 1');
      await client.query(
        `insert into public.withdraw_requests (user_id, amount, withdraw_method) values ($1, 10, 'bank')`,
        [person.id],
      );
    } finally {
      await client.query('rollback');
      client.release();
    }
    expect((await errorOf(withdraw(person))).code).toBe('P0001');
  });
});

describe('what does not start a hold', () => {
  it('signing in, an enrolment not yet verified, a metadata change', async () => {
    const person = await personWithMoney();
    await pool.query(
      `update auth.users set last_sign_in_at = now(), raw_user_meta_data = '{}' where id = $1`,
      [person.id],
    );
    await enrolFactor(person, { verify: false });
    expect(await withdraw(person)).toMatchObject({ rowCount: 1 });
  });

  it('deleting a person with a verified factor (the factor goes with them, and so does the hold)', async () => {
    const person = await createUser(pool);
    await enrolFactor(person, { verify: true });
    await pool.query('delete from auth.users where id = $1', [person.id]);
    const { rows } = await pool.query('select 1 from private.security_holds where user_id = $1', [person.id]);
    expect(rows).toEqual([]);
  });
});

describe('end_security_hold', () => {
  it('lets an admin end a hold early, audited; the person can withdraw at once', async () => {
    const person = await personWithMoney();
    await changePassword(pool, person.id);
    await queryAs(pool, signedIn(admin.id), 'select public.end_security_hold($1)', [person.id]);
    expect(await withdraw(person)).toMatchObject({ rowCount: 1 });
    const { rows } = await pool.query(
      `select actor_id, details->>'change' as change from public.audit_log
       where action = 'security_hold.end' and target_id = $1`,
      [person.id],
    );
    expect(rows).toEqual([{ actor_id: admin.id, change: 'password' }]);
  });

  it('a later change starts a new hold', async () => {
    const person = await personWithMoney();
    await changePassword(pool, person.id);
    await queryAs(pool, signedIn(admin.id), 'select public.end_security_hold($1)', [person.id]);
    await changePassword(pool, person.id);
    expect((await errorOf(withdraw(person))).code).toBe('P0001');
  });

  it('tells an admin when there is no hold to end', async () => {
    const person = await personWithMoney();
    const refusal = await errorOf(
      queryAs(pool, signedIn(admin.id), 'select public.end_security_hold($1)', [person.id]),
    );
    expect(refusal).toEqual({ code: 'P0001', message: "This person's withdrawals are not on hold" });
  });

  it.each([
    ['a visitor', () => anon, 'permission denied for function end_security_hold'],
    ['the service role', () => serviceRole, 'permission denied for function end_security_hold'],
    ['the person on hold', (id: string) => signedIn(id), 'Only admins can do this'],
    ['another user', () => signedIn(randomUUID()), 'Only admins can do this'],
  ])('is refused to %s, and the hold stays', async (_who, actor, message) => {
    const person = await personWithMoney();
    await changePassword(pool, person.id);
    const refusal = await errorOf(
      queryAs(pool, actor(person.id), 'select public.end_security_hold($1)', [person.id]),
    );
    expect(refusal.message).toBe(message);
    expect((await errorOf(withdraw(person))).code).toBe('P0001');
  });
});

describe('private.security_holds', () => {
  it.each([
    ['a visitor', () => anon],
    ['the owner', (id: string) => signedIn(id)],
    ['an admin', () => signedIn(admin.id)],
    ['the service role', () => serviceRole],
  ])('is out of reach of %s: nobody reads or ends a hold but through the RPC', async (_who, actor) => {
    const person = await personWithMoney();
    await changePassword(pool, person.id);
    for (const sql of [
      'select * from private.security_holds where user_id = $1',
      'update private.security_holds set ended_early_at = now() where user_id = $1',
      'delete from private.security_holds where user_id = $1',
    ]) {
      expect((await errorOf(queryAs(pool, actor(person.id), sql, [person.id]))).code).toBe('42501');
    }
  });
});

describe('the security hold setting', () => {
  const setHours = (actor: Parameters<typeof queryAs>[1], hours: unknown) =>
    queryAs(
      pool,
      actor,
      'update public.transaction_limits set security_hold_hours = $1 returning security_hold_hours',
      [hours],
      {
        rollback: true,
      },
    );

  it('is 24 hours, and every signed-in person can read it', async () => {
    const person = await createUser(pool);
    const { rows } = await queryAs(
      pool,
      signedIn(person.id),
      'select security_hold_hours from public.transaction_limits',
    );
    expect(rows).toEqual([{ security_hold_hours: 24 }]);
  });

  it('is changed by an admin, audited on its own (no limits entry)', async () => {
    const entries = await actAs(
      pool,
      signedIn(admin.id),
      async (db) => {
        await db.query('update public.transaction_limits set security_hold_hours = 48');
        const { rows } = await db.query(
          `select action, details from public.audit_log where target_table = 'transaction_limits' and at = now()`,
        );
        return rows;
      },
      { rollback: true },
    );
    expect(entries).toEqual([{ action: 'security_hold_hours.update', details: { old: 24, new: 48 } }]);
  });

  it.each([
    [-1, 'Security hold must be between 0 and 720 hours'],
    [721, 'Security hold must be between 0 and 720 hours'],
    [null, 'Security hold must be between 0 and 720 hours'],
    ['1.5', 'invalid input syntax for type integer: "1.5"'],
  ])('refuses %s hours with a clear message', async (hours, message) => {
    expect((await errorOf(setHours(signedIn(admin.id), hours))).message).toBe(message);
  });

  it('cannot be changed by a signed-in user (row-level security hides the row)', async () => {
    const person = await createUser(pool);
    expect(await setHours(signedIn(person.id), 0)).toMatchObject({ rowCount: 0 });
  });

  it('cannot be changed by a visitor', async () => {
    expect((await errorOf(setHours(anon, 0))).code).toBe('42501');
  });
});
