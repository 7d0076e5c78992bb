import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addSession,
  changePassword,
  connect,
  createUser,
  queryAs,
  signedIn,
  type CreatedUser,
} from '../support/db';

/**
 * The smaller findings of the custodial review: a removed factor's sessions end with it, and security e-mails
 * reach only an address its owner proved, an e-mail change being told to the old address.
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

async function securityEmailsTo(person: CreatedUser) {
  const { rows } = await pool.query<{ recipient: string; subject: string }>(
    'select recipient, subject from private.security_emails where user_id = $1 order by created_at, subject',
    [person.id],
  );
  return rows;
}

describe('remove_two_factor', () => {
  it('leaves no session raised by the removed factor: every session of the person ends', async () => {
    const person = await createUser(pool, { twoFactor: true });
    await addSession(pool, { role: 'authenticated', userId: person.id });
    await addSession(pool, { role: 'authenticated', userId: person.id });
    await queryAs(pool, signedIn(admin.id), 'select public.remove_two_factor($1)', [person.id]);
    const { rows } = await pool.query('select 1 from auth.sessions where user_id = $1', [person.id]);
    expect(rows).toEqual([]);
    const { rows: audit } = await pool.query(
      `select details -> 'sessions_ended' as ended from public.audit_log
       where action = 'user.remove_two_factor' and target_id = $1`,
      [person.id],
    );
    expect(audit).toEqual([{ ended: 2 }]);
  });
});

describe('security e-mails', () => {
  it('are not sent to an address nobody proved (sign-up link not opened), though the app still notifies', async () => {
    const person = await createUser(pool, { unconfirmedEmail: true });
    await changePassword(pool, person.id);
    expect(await securityEmailsTo(person)).toEqual([]);
    const { rows } = await pool.query('select kind from public.notifications where user_id = $1', [
      person.id,
    ]);
    expect(rows).toEqual([{ kind: 'security.password' }]);
  });

  it('tell an e-mail change to the old address, the one the owner proved', async () => {
    const person = await createUser(pool);
    const newAddress = `moved-${person.email}`;
    await pool.query('update auth.users set email = $2 where id = $1', [person.id, newAddress]);
    expect(await securityEmailsTo(person)).toEqual([
      { recipient: person.email, subject: 'E-mail address changed' },
    ]);
  });
});
