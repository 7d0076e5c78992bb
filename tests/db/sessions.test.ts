import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  anon,
  connect,
  createUser,
  errorOf,
  queryAs,
  serviceRole,
  signedIn,
  type CreatedUser,
} from '../support/db';

/** public.list_my_sessions: each person sees their own sessions, and which one is asking; nobody else's. */
let pool: pg.Pool;
let owner: CreatedUser;
let ownerPhone: string;
let ownerLaptop: string;
let other: CreatedUser;
let admin: CreatedUser;

/** A session as GoTrue writes it at sign-in (and at its last refresh). */
async function addSession(user: CreatedUser, userAgent: string, ip: string, refreshedMinutesAgo: number) {
  const id = randomUUID();
  await pool.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip, refreshed_at)
     values ($1, $2, now() - interval '1 day', now() - interval '1 day', 'aal1', $3, $4::inet,
             (now() - make_interval(mins => $5)) at time zone 'UTC')`,
    [id, user.id, userAgent, ip, refreshedMinutesAgo],
  );
  return id;
}

/** The list as the person sees it from the session `sessionId`. */
function sessionsSeenFrom(user: CreatedUser, sessionId: string) {
  return actAs(pool, signedIn(user.id), async (db) => {
    await db.query(`select set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify({ sub: user.id, role: 'authenticated', session_id: sessionId }),
    ]);
    const { rows } = await db.query<{
      id: string;
      user_agent: string;
      ip: string;
      is_current: boolean;
      minutes: number;
    }>(
      `select id, user_agent, ip, is_current, round(extract(epoch from now() - last_active_at) / 60)::int as minutes
       from public.list_my_sessions()`,
    );
    return rows;
  });
}

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  [owner, other, admin] = await Promise.all([
    createUser(pool),
    createUser(pool),
    createUser(pool, { admin: true }),
  ]);
  ownerPhone = await addSession(
    owner,
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1',
    '203.0.113.7',
    90,
  );
  ownerLaptop = await addSession(
    owner,
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0 Safari/537.36',
    '198.51.100.4',
    5,
  );
  await addSession(other, 'curl/8.0', '192.0.2.1', 1);
});

afterAll(async () => {
  await pool.end();
});

describe('list_my_sessions', () => {
  it("lists the owner's sessions with device, address and last activity, the asking one first and marked", async () => {
    expect(await sessionsSeenFrom(owner, ownerPhone)).toEqual([
      expect.objectContaining({ id: ownerPhone, ip: '203.0.113.7', is_current: true, minutes: 90 }),
      expect.objectContaining({ id: ownerLaptop, ip: '198.51.100.4', is_current: false, minutes: 5 }),
    ]);
    const fromLaptop = await sessionsSeenFrom(owner, ownerLaptop);
    expect(fromLaptop.map((session) => [session.id, session.is_current])).toEqual([
      [ownerLaptop, true],
      [ownerPhone, false],
    ]);
  });

  it("shows another user and an admin only their own sessions, never the owner's", async () => {
    const otherSees = await queryAs(
      pool,
      signedIn(other.id),
      'select id, user_agent from public.list_my_sessions()',
    );
    expect(otherSees.rows).toEqual([expect.objectContaining({ user_agent: 'curl/8.0' })]);
    const adminSees = await queryAs(pool, signedIn(admin.id), 'select id from public.list_my_sessions()');
    expect(adminSees.rows).toEqual([]);
  });

  it.each([
    ['a visitor', anon],
    ['the service role', serviceRole],
  ])('is refused to %s', async (_who, actor) => {
    expect(await errorOf(queryAs(pool, actor, 'select * from public.list_my_sessions()'))).toEqual({
      code: '42501',
      message: 'permission denied for function list_my_sessions',
    });
  });

  it('leaves auth.sessions itself out of reach of the API roles', async () => {
    for (const actor of [anon, signedIn(owner.id)]) {
      expect((await errorOf(queryAs(pool, actor, 'select * from auth.sessions'))).code).toBe('42501');
    }
  });
});
