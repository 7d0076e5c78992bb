import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { moveBack } from '../support/time-travel';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  addBuyRequest,
  addPendingDeposit,
  addWithdrawRequest,
  anon,
  changePassword,
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
 * Notifications written where things happen (triggers), the security e-mail outbox, and the
 * "this wasn't me" lock. The per-role rules of public.notifications are in the access matrix.
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

async function notificationsOf(person: CreatedUser) {
  const { rows } = await queryAs<{ kind: string; title: string; body: string }>(
    pool,
    signedIn(person.id),
    'select kind, title, body from public.notifications order by created_at, kind',
  );
  return rows;
}

async function securityEmailsTo(person: CreatedUser) {
  const { rows } = await pool.query<{ recipient: string; subject: string; token: string; sent: boolean }>(
    `select recipient, subject, not_me_token as token, sent_at is not null as sent
     from private.security_emails where user_id = $1 order by created_at`,
    [person.id],
  );
  return rows;
}

describe('notifications are written where things happen', () => {
  it('a buy request approved or rejected', async () => {
    const person = await createUser(pool, { deposit: 500 });
    const approved = await addBuyRequest(pool, person.id, 120);
    const rejected = await addBuyRequest(pool, person.id, 30.5);
    await pool.query(`update public.buy_requests set status = 'approved', decided_at = now() where id = $1`, [
      approved,
    ]);
    await pool.query(`update public.buy_requests set status = 'rejected', decided_at = now() where id = $1`, [
      rejected,
    ]);
    expect((await notificationsOf(person)).slice(1)).toEqual([
      {
        kind: 'buy_request.approved',
        title: 'Buy request approved',
        body: 'Your request to buy $120 of Bitcoin was approved.',
      },
      {
        kind: 'buy_request.rejected',
        title: 'Buy request rejected',
        body: 'Your request to buy $30.5 of Bitcoin was rejected.',
      },
    ]);
  });

  it('a withdrawal approved or rejected, not a status type in between', async () => {
    const person = await createUser(pool, { deposit: 500 });
    const request = await addWithdrawRequest(pool, person.id, 1250);
    await pool.query(`update public.withdraw_requests set status = 'processing' where id = $1`, [request]);
    await pool.query(
      `update public.withdraw_requests set status = 'approved', decided_at = now() where id = $1`,
      [request],
    );
    expect((await notificationsOf(person)).slice(1)).toEqual([
      {
        kind: 'withdraw_request.approved',
        title: 'Withdrawal approved',
        body: 'Your withdrawal of $1,250 was approved.',
      },
    ]);
  });

  it('a deposit completed, whether written complete or completed by an admin', async () => {
    const person = await createUser(pool, { deposit: 75 });
    const pending = await addPendingDeposit(pool, person.id, 20);
    expect(await notificationsOf(person)).toHaveLength(1);
    await queryAs(pool, signedIn(admin.id), `select public.set_transaction_status($1, 'complete', $2)`, [
      pending,
      randomUUID(),
    ]);
    expect(await notificationsOf(person)).toEqual([
      { kind: 'deposit.completed', title: 'Deposit completed', body: '$75 was added to your balance.' },
      { kind: 'deposit.completed', title: 'Deposit completed', body: '$20 was added to your balance.' },
    ]);
  });

  it('a new sign-in, with its address, in the app and by e-mail; not the first session, which sign-up makes', async () => {
    const person = await createUser(pool);
    const signIn = (address: string) =>
      pool.query(
        `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
         values ($1, $2, now(), now(), 'aal1', 'curl/8', $3)`,
        [randomUUID(), person.id, address],
      );
    await signIn('198.51.100.1');
    expect(await notificationsOf(person)).toEqual([]);
    expect(await securityEmailsTo(person)).toEqual([]);

    await signIn('203.0.113.9');
    expect(await notificationsOf(person)).toEqual([
      {
        kind: 'security.sign_in',
        title: 'New sign-in',
        body: 'Signed in from 203.0.113.9. Not you? Change your password.',
      },
    ]);
    expect(await securityEmailsTo(person)).toEqual([
      { recipient: person.email, subject: 'New sign-in', token: expect.any(String), sent: false },
    ]);
    const { rows } = await pool.query<{ body: string }>(
      'select body from private.security_emails where user_id = $1',
      [person.id],
    );
    expect(rows[0]?.body).toMatch(
      /^New sign-in to your account at \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC from 203\.0\.113\.9\. If it was you, there is nothing to do\.$/,
    );
  });

  it('a refreshed or raised (aal2) session is not a new sign-in', async () => {
    const person = await createUser(pool);
    const sessions = [randomUUID(), randomUUID()];
    for (const id of sessions) {
      await pool.query(
        `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`,
        [id, person.id],
      );
    }
    await pool.query(
      `update auth.sessions set refreshed_at = now(), updated_at = now(), aal = 'aal2' where id = any($1)`,
      [sessions],
    );
    expect((await notificationsOf(person)).map(({ kind }) => kind)).toEqual(['security.sign_in']);
  });

  it('a password or two-factor change, also queued as an e-mail with a "this wasn\'t me" link', async () => {
    const person = await createUser(pool);
    await changePassword(pool, person.id);
    const factorId = randomUUID();
    await pool.query(
      `insert into auth.mfa_factors (id, user_id, factor_type, status, created_at, updated_at, secret)
       values ($1, $2, 'totp', 'verified', now(), now(), 'SECRET')`,
      [factorId, person.id],
    );
    expect((await notificationsOf(person)).map(({ kind, title }) => [kind, title])).toEqual([
      ['security.password', 'Password changed'],
      ['security.factor_added', 'Two-factor authentication added'],
    ]);
    const emails = await securityEmailsTo(person);
    expect(emails.map(({ recipient, subject, sent }) => ({ recipient, subject, sent }))).toEqual([
      { recipient: person.email, subject: 'Password changed', sent: false },
      { recipient: person.email, subject: 'Two-factor authentication added', sent: false },
    ]);
    expect(new Set(emails.map((email) => email.token)).size).toBe(2);
  });
});

describe('the security e-mail outbox', () => {
  /** Every other unsent e-mail in the shared database is held by another sender, so a claim finds only these. */
  async function holdAllBut(people: CreatedUser[]) {
    await pool.query(
      `update private.security_emails set claimed_until = now() + interval '1 hour'
       where sent_at is null and user_id <> all($1)`,
      [people.map(({ id }) => id)],
    );
  }

  async function claim() {
    const { rows } = await queryAs<{ id: string; recipient: string }>(
      pool,
      serviceRole,
      'select id, recipient from public.claim_security_emails()',
    );
    return rows;
  }

  it('is claimed and marked sent by the service role only (the sending function)', async () => {
    const person = await createUser(pool);
    await changePassword(pool, person.id);
    const [email] = await securityEmailsTo(person);
    await holdAllBut([person]);
    const claimed = await claim();
    expect(claimed).toEqual([{ id: expect.any(String), recipient: person.email }]);
    await queryAs(pool, serviceRole, 'select public.mark_security_email_sent($1)', [claimed[0]?.id]);
    expect((await securityEmailsTo(person))[0]).toMatchObject({ token: email?.token, sent: true });

    for (const actor of [anon, signedIn(person.id), signedIn(admin.id)]) {
      expect((await errorOf(queryAs(pool, actor, 'select * from public.claim_security_emails()'))).code).toBe(
        '42501',
      );
      for (const call of ['mark_security_email_sent', 'release_security_email']) {
        expect((await errorOf(queryAs(pool, actor, `select public.${call}($1)`, [randomUUID()]))).code).toBe(
          '42501',
        );
      }
    }
  });

  it('gives two senders at the same moment different e-mails, twenty at most each, without waiting', async () => {
    const people = await Promise.all(Array.from({ length: 25 }, () => createUser(pool)));
    for (const person of people) await changePassword(pool, person.id);
    await holdAllBut(people);

    // The first sender's claim is not committed yet when the second claims: the second skips its rows.
    const [first, second] = await actAs(pool, serviceRole, async (db) => {
      const { rows } = await db.query<{ id: string }>('select id from public.claim_security_emails()');
      return [rows, await claim()];
    });
    expect(first).toHaveLength(20);
    expect(second).toHaveLength(5);
    const ids = [...first, ...second].map(({ id }) => id);
    expect(new Set(ids).size).toBe(25);
    // Both committed: a third sender finds nothing to send.
    expect(await claim()).toEqual([]);
  });

  it('sends again what a sender claimed and never marked (it crashed), once its lease ends; a refused one at once', async () => {
    const [crashed, refused] = [await createUser(pool), await createUser(pool)];
    for (const person of [crashed, refused]) await changePassword(pool, person.id);
    await holdAllBut([crashed, refused]);
    const claimed = await claim();
    expect(claimed.map(({ recipient }) => recipient).sort()).toEqual([crashed.email, refused.email].sort());

    const refusedId = claimed.find(({ recipient }) => recipient === refused.email)?.id;
    await queryAs(pool, serviceRole, 'select public.release_security_email($1)', [refusedId]);
    expect(await claim()).toEqual([{ id: refusedId, recipient: refused.email }]);

    // Five minutes later the crashed sender's lease has ended.
    await pool.query(
      `update private.security_emails set claimed_until = now() - interval '1 second' where user_id = $1`,
      [crashed.id],
    );
    expect(await claim()).toEqual([{ id: expect.any(String), recipient: crashed.email }]);
  });
});

describe('"this wasn\'t me"', () => {
  it('locks withdrawals at once for whoever holds the link, signed in or not; only an admin lifts it, audited', async () => {
    const person = await createUser(pool, { deposit: 500 });
    await changePassword(pool, person.id);
    const [email] = await securityEmailsTo(person);
    await queryAs(pool, anon, 'select public.report_not_me($1)', [email?.token]);
    // A second click (or the mail scanner's) changes nothing.
    await queryAs(pool, anon, 'select public.report_not_me($1)', [email?.token]);
    expect(
      (await notificationsOf(person)).filter(({ kind }) => kind === 'security.withdrawals_locked'),
    ).toHaveLength(1);

    // Even past the hold, the lock stays.
    await pool.query(
      `update private.security_holds set changed_at = now() - interval '30 days' where user_id = $1`,
      [person.id],
    );
    const refusal = await errorOf(createWithdrawRequest(pool, signedIn(person.id), { amount: 20 }));
    expect(refusal).toEqual({
      code: 'P0001',
      message:
        'Withdrawals are locked because you reported a change you did not make. Contact support to unlock them.',
    });
    for (const actor of [signedIn(person.id), anon]) {
      expect(
        (await errorOf(queryAs(pool, actor, 'select public.end_security_hold($1)', [person.id]))).code,
      ).toMatch(/^(42501|P0001)$/);
    }

    await queryAs(pool, signedIn(admin.id), 'select public.end_security_hold($1)', [person.id]);
    // The link also froze the account, which ends apart (tests/db/account-freeze.test.ts): here its delay passed.
    expect((await errorOf(createWithdrawRequest(pool, signedIn(person.id), { amount: 20 }))).message).toMatch(
      /^Your account is frozen/,
    );
    await moveBack(pool, 'update public.account_freezes set unfreeze_at = now() where user_id = $1', [
      person.id,
    ]);
    expect(await createWithdrawRequest(pool, signedIn(person.id), { amount: 20 })).toMatchObject({
      rowCount: 1,
    });
    const { rows } = await pool.query(
      `select action, actor_id from public.audit_log where target_id = $1 and action in ('withdrawals.lock', 'security_hold.end')
       order by at`,
      [person.id],
    );
    expect(rows).toEqual([
      { action: 'withdrawals.lock', actor_id: person.id },
      { action: 'security_hold.end', actor_id: admin.id },
    ]);
  });

  it('refuses an unknown or expired link and locks nothing', async () => {
    const person = await createUser(pool, { deposit: 500 });
    await changePassword(pool, person.id);
    const [email] = await securityEmailsTo(person);
    await pool.query(
      `update private.security_emails set created_at = now() - interval '31 days' where user_id = $1`,
      [person.id],
    );
    for (const token of [email?.token, randomUUID()]) {
      expect(await errorOf(queryAs(pool, anon, 'select public.report_not_me($1)', [token]))).toEqual({
        code: 'P0001',
        message: 'This link is invalid or has expired',
      });
    }
    const { rows } = await pool.query('select 1 from private.withdrawal_locks where user_id = $1', [
      person.id,
    ]);
    expect(rows).toEqual([]);
  });

  it('leaves the outbox and the locks out of reach of every API role', async () => {
    for (const actor of [anon, signedIn(admin.id), serviceRole]) {
      for (const table of ['private.security_emails', 'private.withdrawal_locks']) {
        expect((await errorOf(queryAs(pool, actor, `select * from ${table}`))).code).toBe('42501');
      }
    }
  });
});
