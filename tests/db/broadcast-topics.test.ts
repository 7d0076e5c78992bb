import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  addBuyRequest,
  addSellRequest,
  addWithdrawRequest,
  anon,
  connect,
  createUser,
  signedIn,
  signedInWithPasswordOnly,
  type Actor,
  type CreatedUser,
} from '../support/db';

/**
 * The private Broadcast topics (supabase/migrations/20261127000300_broadcast_topics.sql), decided by the
 * select policies on realtime.messages as Supabase Realtime asks them when a private channel joins: a probe
 * message of the topic, read back as the person with `realtime.topic` set, everything rolled back.
 */
type Who = 'anon' | 'owner' | 'another user' | 'admin at aal1' | 'admin at aal2';

let pool: pg.Pool;
let owner: CreatedUser;
let another: CreatedUser;
let admin: CreatedUser;

function actorOf(who: Who): Actor {
  switch (who) {
    case 'anon':
      return anon;
    case 'owner':
      return signedIn(owner.id);
    case 'another user':
      return signedIn(another.id);
    case 'admin at aal1':
      return signedInWithPasswordOnly(admin.id);
    case 'admin at aal2':
      return signedIn(admin.id);
  }
}

/**
 * Whether `actor` may join `topic`, as supabase/realtime's authorization.ex asks it: a probe message of the
 * topic written with the API's privileges, read back as the person (their role and claims, `realtime.topic`
 * set), all rolled back.
 */
function mayJoin(actor: Actor, topic: string): Promise<boolean> {
  return actAs(
    pool,
    actor,
    async (db) => {
      await db.query('reset role');
      const { rows } = await db.query<{ id: string }>(
        `insert into realtime.messages (topic, extension) values ($1, 'broadcast') returning id`,
        [topic],
      );
      await db.query(`select set_config('realtime.topic', $1, true)`, [topic]);
      await db.query(`set local role ${actor.role}`);
      return (await db.query('select 1 from realtime.messages where id = $1', [rows[0]?.id])).rowCount === 1;
    },
    { rollback: true },
  );
}

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  owner = await createUser(pool, { deposit: 100 });
  another = await createUser(pool);
  admin = await createUser(pool, { admin: true });
});

afterAll(async () => {
  await pool?.end();
});

describe('who may join which private topic', () => {
  const cases: [string, (id: string) => string, Record<Who, boolean>][] = [
    [
      "the owner's wallet topic",
      (id) => `user:${id}:wallet`,
      { anon: false, owner: true, 'another user': false, 'admin at aal1': false, 'admin at aal2': false },
    ],
    [
      "the owner's account topic",
      (id) => `user:${id}:account`,
      { anon: false, owner: true, 'another user': false, 'admin at aal1': false, 'admin at aal2': false },
    ],
    [
      'the admin queues topic',
      () => 'admin:queues',
      { anon: false, owner: false, 'another user': false, 'admin at aal1': false, 'admin at aal2': true },
    ],
  ];
  for (const [name, topicOf, expected] of cases) {
    it(`${name}: ${Object.entries(expected)
      .map(([who, allowed]) => `${who} ${allowed ? 'joins' : 'is refused'}`)
      .join(', ')}`, async () => {
      const topic = topicOf(owner.id);
      const seen: Record<string, boolean> = {};
      for (const who of Object.keys(expected) as Who[]) seen[who] = await mayJoin(actorOf(who), topic);
      expect(seen).toEqual(expected);
    });
  }

  it('refuses a person with a verified factor their wallet topic at aal1, not their account topic', async () => {
    const withFactor = await createUser(pool, { twoFactor: true });
    const atAal1 = signedInWithPasswordOnly(withFactor.id);
    expect(await mayJoin(atAal1, `user:${withFactor.id}:wallet`)).toBe(false);
    expect(await mayJoin(atAal1, `user:${withFactor.id}:account`)).toBe(true);
    expect(await mayJoin(signedIn(withFactor.id), `user:${withFactor.id}:wallet`)).toBe(true);
  });
});

describe('what a broadcast carries', () => {
  it('only columns signed-in people may select, of every table that broadcasts', async () => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const since = (await client.query<{ now: string }>('select now()::timestamp::text as now')).rows[0]
        ?.now;
      await addBuyRequest(client, owner.id, 20);
      await addSellRequest(client, owner.id);
      const withdrawal = await addWithdrawRequest(client, owner.id, 10);
      await client.query(`update public.withdraw_requests set encrypted_data = 'secret' where id = $1`, [
        withdrawal,
      ]);
      await client.query(`select private.notify($1, 'deposit.completed', 'Deposit completed', 'Test')`, [
        owner.id,
      ]);
      await client.query(
        `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values (gen_random_uuid(), $1, now(), now(), 'aal1')`,
        [owner.id],
      );
      const { rows } = await client.query<{ topic: string; event: string; payload: Record<string, unknown> }>(
        `select topic, event, payload from realtime.messages where inserted_at >= $1::timestamp and topic <> ''
          order by inserted_at`,
        [since],
      );
      const events = new Set(rows.map((row) => row.event));
      expect([...events].sort()).toEqual(
        [
          'buy_requests',
          'notifications',
          'security_log',
          'sell_requests',
          'sessions',
          'transactions',
          'withdraw_requests',
        ].sort(),
      );
      for (const { event, payload } of rows) {
        const schema = event === 'sessions' ? 'auth' : 'public';
        for (const part of ['record', 'old_record'] as const) {
          const columns = Object.keys((payload[part] as Record<string, unknown> | null) ?? {});
          const { rows: selectable } = await client.query<{ column: string; selectable: boolean }>(
            `select c as column, has_column_privilege('authenticated', format('%I.%I', $1::text, $2::text), c, 'SELECT') as selectable
               from unnest($3::text[]) c`,
            [schema, event, columns],
          );
          expect(selectable.filter((column) => !column.selectable)).toEqual([]);
        }
      }
      expect(JSON.stringify(rows)).not.toContain('secret');
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
