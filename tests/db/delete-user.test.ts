import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  addBuyRequest,
  anon,
  connect,
  createUser,
  errorOf,
  queryAs,
  serviceRole,
  signedIn,
  type CreatedUser,
} from '../support/db';

/** public.delete_user: an admin deletes a person and records it, in one transaction. */
let pool: pg.Pool;
let admin: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await createUser(pool, { admin: true });
});

afterAll(async () => {
  await pool.end();
});

async function traceOf(userId: string) {
  const { rows } = await pool.query<{ users: number; profiles: number; requests: number; audits: number }>(
    `select
       (select count(*)::int from auth.users where id = $1) as users,
       (select count(*)::int from public.profiles where id = $1) as profiles,
       (select count(*)::int from public.buy_requests where user_id = $1) as requests,
       (select count(*)::int from public.audit_log where action = 'user.delete' and target_id = $1) as audits`,
    [userId],
  );
  return rows[0];
}

describe('delete_user', () => {
  it('deletes the person with every row of theirs and records the admin who did it', async () => {
    const person = await createUser(pool, { fullName: 'Leaving Person', deposit: 100 });
    await addBuyRequest(pool, person.id, 20);
    const { rows } = await queryAs(pool, signedIn(admin.id), 'select public.delete_user($1) as deleted', [
      person.id,
    ]);
    expect(rows).toEqual([{ deleted: person.id }]);
    expect(await traceOf(person.id)).toEqual({ users: 0, profiles: 0, requests: 0, audits: 1 });
    const audit = await pool.query(
      `select actor_id, details->>'email' as email from public.audit_log
       where action = 'user.delete' and target_id = $1`,
      [person.id],
    );
    expect(audit.rows).toEqual([{ actor_id: admin.id, email: person.email }]);
  });

  it.each([
    ['a visitor', () => anon, 'permission denied for function delete_user'],
    ['the service role', () => serviceRole, 'permission denied for function delete_user'],
    ['a signed-in user, even for themselves', (id: string) => signedIn(id), 'Only admins can do this'],
  ])('is refused for %s, and the person keeps everything', async (_who, actorOf, message) => {
    const person = await createUser(pool, { deposit: 100 });
    const error = await errorOf(
      queryAs(pool, actorOf(person.id), 'select public.delete_user($1)', [person.id]),
    );
    expect(error).toMatchObject({ code: '42501', message });
    expect(await traceOf(person.id)).toEqual({ users: 1, profiles: 1, requests: 0, audits: 0 });
  });

  it("refuses the admin's own account and an unknown id", async () => {
    expect(
      await errorOf(queryAs(pool, signedIn(admin.id), 'select public.delete_user($1)', [admin.id])),
    ).toMatchObject({ code: 'P0001', message: 'You cannot delete your own account' });
    expect(
      await errorOf(
        queryAs(pool, signedIn(admin.id), 'select public.delete_user($1)', [
          '00000000-0000-4000-8000-000000000000',
        ]),
      ),
    ).toMatchObject({ code: 'P0002', message: 'User not found' });
    expect(await traceOf(admin.id)).toMatchObject({ users: 1, profiles: 1, audits: 0 });
  });

  it('writes no audit entry when the deletion fails: both happen or neither', async () => {
    const person = await createUser(pool, { deposit: 100 });
    // The database operator makes this one deletion fail after the audit entry was written.
    const client = await pool.connect();
    try {
      await client.query(`create or replace function public.test_refuse_delete() returns trigger language plpgsql
        as $$ begin raise exception 'deletion failed'; end; $$`);
      await client.query(`create trigger test_refuse_delete before delete on auth.users
        for each row when (old.id = '${person.id}') execute function public.test_refuse_delete()`);
      const error = await errorOf(
        queryAs(pool, signedIn(admin.id), 'select public.delete_user($1)', [person.id]),
      );
      expect(error.message).toBe('deletion failed');
      expect(await traceOf(person.id)).toEqual({ users: 1, profiles: 1, requests: 0, audits: 0 });
    } finally {
      await client.query('drop trigger if exists test_refuse_delete on auth.users');
      await client.query('drop function if exists public.test_refuse_delete()');
      client.release();
    }
  });
});
