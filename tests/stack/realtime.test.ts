import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import {
  createClient,
  type RealtimeChannel,
  type RealtimePostgresChangesPayload,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../devstack/src/db/postgres';
import { createJwtKeys } from '../../devstack/src/jwt-keys';
import { attachRealtime, type RunningRealtime } from '../../devstack/src/realtime';

/**
 * Realtime `postgres_changes` as supabase-js clients see it. The tables live in their own schema and
 * mirror the app's three live tables (owner or admin may read; `encrypted_data` not granted to API
 * roles), so these tests hold whatever the migrations do.
 */
const schema = 'realtime_spec';
const liveTables = ['buy_requests', 'withdraw_requests', 'transactions'] as const;
type LiveTable = (typeof liveTables)[number];
type Row = Record<string, unknown>;
type Change = RealtimePostgresChangesPayload<Row>;
interface SystemMessage {
  extension: string;
  status: string;
  message: string;
}
interface Binding {
  event: '*' | 'INSERT' | 'UPDATE' | 'DELETE';
  table?: string;
  filter?: string;
  schema?: string;
}
interface Subscriber {
  client: SupabaseClient;
  channel: RealtimeChannel;
  changes: Change[];
  system: SystemMessage[];
  statuses: string[];
  errors: string[];
}

const databaseUrl = inject('databaseUrl');
const jwtSecret = inject('jwtSecret');
const anonKey = inject('anonKey');
const serviceRoleKey = inject('serviceRoleKey');
const secretKey = new TextEncoder().encode(jwtSecret);

let db: pg.Client;
let realtime: RunningRealtime;
let server: Server;
let apiUrl: string;
const clients: SupabaseClient[] = [];

async function tokenFor(userId: string | null, { role = 'authenticated', expiresInSeconds = 3600 } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role, aud: 'authenticated', ...(userId ? { sub: userId } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(secretKey);
}

async function newPerson({ admin = false } = {}) {
  const id = randomUUID();
  if (admin) await db.query(`insert into ${schema}.admins (user_id) values ($1)`, [id]);
  return { id, token: await tokenFor(id) };
}

async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function connect(url = apiUrl) {
  const client = createClient(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    // Node 20 has no global WebSocket; browsers use theirs.
    realtime: { transport: WebSocket as never, params: { log_level: 'error' } },
  });
  clients.push(client);
  return client;
}

/** A supabase-js client listening with `bindings`; resolves once the channel reports its first status. */
async function subscribe(token: string | null, bindings: Binding[], url = apiUrl): Promise<Subscriber> {
  const client = connect(url);
  if (token) await client.realtime.setAuth(token);
  return listenOn(client, bindings);
}

/** A new channel of `client` (on its socket, with its token) listening with `bindings`. */
async function listenOn(client: SupabaseClient, bindings: Binding[]): Promise<Subscriber> {
  const channel = client.channel(`spec-${randomUUID()}`);
  const subscriber: Subscriber = { client, channel, changes: [], system: [], statuses: [], errors: [] };
  for (const binding of bindings) {
    channel.on('postgres_changes', { schema, ...binding }, (change: Change) =>
      subscriber.changes.push(change),
    );
  }
  channel.on('system', {}, (message: SystemMessage) => subscriber.system.push(message));
  channel.subscribe((status, error) => {
    subscriber.statuses.push(status);
    if (error) subscriber.errors.push(error.message);
  });
  await waitFor(() => (subscriber.statuses.length > 0 ? true : undefined), 'the channel to answer');
  return subscriber;
}

/**
 * The witness that nothing more is on its way to `client`: a change made now, seen on a new channel of the
 * same client. One socket carries changes in commit order, so any change made before it that was going to
 * reach the client has arrived by then.
 */
async function untilLaterChangeArrives(client: SupabaseClient, userId: string): Promise<void> {
  const witness = await listenOn(client, [{ event: 'INSERT', table: 'transactions' }]);
  const later = await insert('transactions', { user_id: userId, amount: 7 });
  await waitForChange(witness, (c) => rowOf(c).id === later.id, 'the later change on the same socket');
}

function rowOf(change: Change): Row {
  return change.eventType === 'DELETE' ? change.old : change.new;
}

function waitForChange(subscriber: Subscriber, matches: (change: Change) => boolean, what: string) {
  return waitFor(() => subscriber.changes.find(matches), what);
}

async function insert(table: LiveTable, values: Row): Promise<Row> {
  const columns = Object.keys(values);
  const { rows } = await db.query<Row>(
    `insert into ${schema}.${table} (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning *`,
    Object.values(values),
  );
  return rows[0] ?? {};
}

const amountsOf = { buy_requests: 100, withdraw_requests: 50, transactions: 25 } as const;

/** A row of the person in each live table, then its update, then its deletion. */
async function insertUpdateDelete(userId: string) {
  for (const table of liveTables) {
    const row = await insert(table, { user_id: userId, amount: amountsOf[table] });
    await db.query(`update ${schema}.${table} set status = 'processing' where id = $1`, [row.id]);
    await db.query(`delete from ${schema}.${table} where id = $1`, [row.id]);
  }
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`
    drop schema if exists ${schema} cascade;
    create schema ${schema};
    grant usage on schema ${schema} to anon, authenticated, service_role;
    create table ${schema}.admins (user_id uuid primary key);
    create function ${schema}.is_admin() returns boolean
      language sql stable security definer set search_path = ''
      as $$ select exists (select from ${schema}.admins where user_id = (select auth.uid())) $$;
    create table ${schema}.buy_requests (
      id uuid primary key default gen_random_uuid(), user_id uuid not null, amount numeric(14,2) not null,
      status text not null default 'pending', date timestamptz not null default now());
    create table ${schema}.withdraw_requests (
      id uuid primary key default gen_random_uuid(), user_id uuid not null, amount numeric(14,2) not null,
      status text not null default 'pending', encrypted_data text, date timestamptz not null default now());
    create table ${schema}.transactions (
      id uuid primary key default gen_random_uuid(), user_id uuid not null, amount numeric(14,2) not null,
      status text not null default 'pending', date timestamptz not null default now());
  `);
  for (const table of liveTables) {
    await db.query(`
      alter table ${schema}.${table} replica identity full;
      alter table ${schema}.${table} enable row level security;
      create policy "Owners and admins can read" on ${schema}.${table} for select to authenticated
        using (user_id = (select auth.uid()) or (select ${schema}.is_admin()));
      grant all on ${schema}.${table} to service_role;
      alter publication supabase_realtime add table ${schema}.${table};
    `);
  }
  await db.query(`
    grant select on ${schema}.buy_requests, ${schema}.transactions to anon, authenticated;
    grant select (id, user_id, amount, status, date) on ${schema}.withdraw_requests to anon, authenticated;
  `);

  server = createServer();
  realtime = await attachRealtime(server, {
    databaseUrl,
    jwtKeys: await createJwtKeys({ secret: jwtSecret }),
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.removeAllChannels()));
  await realtime?.close();
  server?.close();
  await db?.query(`drop schema if exists ${schema} cascade`);
  await db?.end();
});

describe('postgres_changes as the app uses them', () => {
  it('delivers a user’s new buy request to a subscribed admin, and its approval as an UPDATE with old and new status', async () => {
    const admin = await newPerson({ admin: true });
    const user = await newPerson();
    const queue = await subscribe(admin.token, [{ event: '*', table: 'buy_requests' }]);
    expect(queue.statuses).toEqual(['SUBSCRIBED']);
    expect(queue.system).toContainEqual(
      expect.objectContaining({ status: 'ok', message: 'Subscribed to PostgreSQL' }),
    );

    const request = await insert('buy_requests', { user_id: user.id, amount: 250 });
    const created = await waitForChange(
      queue,
      (c) => c.eventType === 'INSERT' && c.new.id === request.id,
      'the new request',
    );
    expect(created).toMatchObject({ schema, table: 'buy_requests', errors: null });
    expect(created.new).toMatchObject({ user_id: user.id, amount: 250, status: 'pending' });
    expect(Date.parse(created.commit_timestamp)).toBeGreaterThan(Date.now() - 60_000);

    await db.query(`update ${schema}.buy_requests set status = 'approved' where id = $1`, [request.id]);
    const approved = await waitForChange(
      queue,
      (c) => c.eventType === 'UPDATE' && c.new.id === request.id,
      'the approval',
    );
    expect(approved.old).toMatchObject({ id: request.id, status: 'pending' });
    expect(approved.new).toMatchObject({ id: request.id, status: 'approved' });
  });

  it('never shows user A any of user B’s rows (insert, update, delete) in the three live tables, without a filter', async () => {
    const a = await newPerson();
    const b = await newPerson();
    const everything = liveTables.map((table) => ({ event: '*' as const, table }));
    const aListens = await subscribe(a.token, everything);
    const bListens = await subscribe(b.token, everything);

    await insertUpdateDelete(b.id);
    await insertUpdateDelete(a.id);
    // Changes reach each subscriber in commit order: once A has A's last deletion, B's rows would have come first.
    await waitFor(() => (aListens.changes.length === 9 ? true : undefined), 'A’s own nine changes');
    await waitFor(() => (bListens.changes.length === 9 ? true : undefined), 'B’s own nine changes');

    expect(aListens.changes.map((c) => rowOf(c).user_id)).toEqual(Array(9).fill(a.id));
    expect(JSON.stringify(aListens.changes)).not.toContain(b.id);
    expect(aListens.changes.map((c) => `${c.table} ${c.eventType}`)).toEqual(
      liveTables.flatMap((table) => [`${table} INSERT`, `${table} UPDATE`, `${table} DELETE`]),
    );
    expect(JSON.stringify(bListens.changes)).not.toContain(a.id);
  });

  it('never carries encrypted_data to a user, nor to an admin, of any withdrawal change', async () => {
    const admin = await newPerson({ admin: true });
    const user = await newPerson();
    const own = await subscribe(user.token, [
      { event: '*', table: 'withdraw_requests', filter: `user_id=eq.${user.id}` },
    ]);
    const queue = await subscribe(admin.token, [{ event: '*', table: 'withdraw_requests' }]);
    const backend = await subscribe(serviceRoleKey, [{ event: 'INSERT', table: 'withdraw_requests' }]);
    const ciphertext = `iv-${randomUUID()}.ciphertext.wrapped-key`;

    const request = await insert('withdraw_requests', {
      user_id: user.id,
      amount: 75,
      encrypted_data: ciphertext,
    });
    await db.query(`update ${schema}.withdraw_requests set status = 'approved' where id = $1`, [request.id]);
    await db.query(`delete from ${schema}.withdraw_requests where id = $1`, [request.id]);

    for (const subscriber of [own, queue]) {
      await waitFor(
        () => (subscriber.changes.length === 3 ? true : undefined),
        'the three withdrawal changes',
      );
      for (const change of subscriber.changes) {
        expect(rowOf(change)).toMatchObject({ id: request.id, user_id: user.id });
        expect(Object.keys(change.new)).not.toContain('encrypted_data');
        expect(Object.keys(change.old)).not.toContain('encrypted_data');
      }
      expect(JSON.stringify(subscriber.changes)).not.toContain(ciphertext);
    }
    // The column is withheld because API users may not select it, not blindly: service_role may.
    const backendInsert = await waitForChange(
      backend,
      (c) => rowOf(c).id === request.id,
      'the service-role insert',
    );
    expect(rowOf(backendInsert).encrypted_data).toBe(ciphertext);
  });

  it('shows anon subscribers nothing of protected tables', async () => {
    const user = await newPerson();
    const visitor = await subscribe(
      null,
      liveTables.map((table) => ({ event: '*' as const, table })),
    );
    const witness = await subscribe(serviceRoleKey, [{ event: '*', table: 'transactions' }]);
    expect(visitor.statuses).toEqual(['SUBSCRIBED']);

    await insertUpdateDelete(user.id);
    await waitFor(
      () => (witness.changes.length === 3 ? true : undefined),
      'the witness to see the last change',
    );
    // Realtime checks each change for every subscriber in turn: the witness's last change is sent after
    // whatever the visitor was going to get of the earlier ones.
    expect(visitor.changes).toEqual([]);
  });
});

describe('subscription options', () => {
  it('applies filters: eq on the owner, in on the status, and never on a column the subscriber may not read', async () => {
    const admin = await newPerson({ admin: true });
    const a = await newPerson();
    const b = await newPerson();
    const onlyA = await subscribe(admin.token, [
      { event: '*', table: 'buy_requests', filter: `user_id=eq.${a.id}` },
    ]);
    const decided = await subscribe(admin.token, [
      { event: 'UPDATE', table: 'buy_requests', filter: 'status=in.(approved,rejected)' },
    ]);
    const probing = await subscribe(admin.token, [
      { event: '*', table: 'withdraw_requests', filter: 'encrypted_data=eq.secret' },
    ]);

    await insert('withdraw_requests', { user_id: a.id, amount: 10, encrypted_data: 'secret' });
    const ofB = await insert('buy_requests', { user_id: b.id, amount: 20 });
    const ofA = await insert('buy_requests', { user_id: a.id, amount: 30 });
    await db.query(`update ${schema}.buy_requests set status = 'processing' where id = $1`, [ofB.id]);
    await db.query(`update ${schema}.buy_requests set status = 'rejected' where id = $1`, [ofB.id]);
    await db.query(`update ${schema}.buy_requests set status = 'approved' where id = $1`, [ofA.id]);

    await waitForChange(onlyA, (c) => c.eventType === 'UPDATE' && rowOf(c).id === ofA.id, 'A’s approval');
    expect(onlyA.changes.map((c) => [c.eventType, rowOf(c).id])).toEqual([
      ['INSERT', ofA.id],
      ['UPDATE', ofA.id],
    ]);
    await waitForChange(decided, (c) => rowOf(c).id === ofA.id, 'the approval');
    expect(decided.changes.map((c) => [rowOf(c).id, rowOf(c).status])).toEqual([
      [ofB.id, 'rejected'],
      [ofA.id, 'approved'],
    ]);
    expect(probing.changes).toEqual([]);
  });

  it('delivers only the event kinds asked for', async () => {
    const user = await newPerson();
    const inserts = await subscribe(user.token, [{ event: 'INSERT', table: 'transactions' }]);
    const deletes = await subscribe(user.token, [{ event: 'DELETE', table: 'transactions' }]);
    const both = await subscribe(user.token, [
      { event: 'UPDATE', table: 'transactions' },
      { event: 'DELETE', table: 'transactions' },
    ]);

    await insertUpdateDelete(user.id);
    await waitFor(
      () => (deletes.changes.length === 1 && both.changes.length === 2 ? true : undefined),
      'the deletions',
    );
    expect(inserts.changes.map((c) => c.eventType)).toEqual(['INSERT']);
    expect(deletes.changes.map((c) => c.eventType)).toEqual(['DELETE']);
    expect(both.changes.map((c) => c.eventType)).toEqual(['UPDATE', 'DELETE']);
  });

  it('stops delivering after unsubscribe (phx_leave answered ok)', async () => {
    const user = await newPerson();
    const leaving = await subscribe(user.token, [{ event: '*', table: 'transactions' }]);
    const staying = await subscribe(user.token, [{ event: '*', table: 'transactions' }]);
    await insert('transactions', { user_id: user.id, amount: 1 });
    await waitFor(() => (leaving.changes.length === 1 ? true : undefined), 'the first change');

    expect(await leaving.channel.unsubscribe()).toBe('ok');
    const after = await insert('transactions', { user_id: user.id, amount: 2 });
    await waitForChange(staying, (c) => rowOf(c).id === after.id, 'the change after leaving');
    await untilLaterChangeArrives(leaving.client, user.id);
    expect(leaving.changes).toHaveLength(1);
    expect(leaving.statuses).toContain('CLOSED');
  });
});

/**
 * A token that expires soon, yet late enough to connect and join with on a busy machine (an expiry in whole
 * seconds leaves as little as 1 s of a 2 s token for both), and its expiry in ms.
 */
async function shortLivedToken(userId: string) {
  const expiresAt = (Math.floor(Date.now() / 1000) + 6) * 1000;
  return { token: await tokenFor(userId, { expiresInSeconds: 6 }), expiresAt };
}

describe('tokens', () => {
  it('keeps a subscription alive on a refreshed token after the first one’s expiry', async () => {
    const user = await newPerson();
    const first = await shortLivedToken(user.id);
    const subscriber = await subscribe(first.token, [{ event: 'INSERT', table: 'transactions' }]);
    await subscriber.client.realtime.setAuth(await tokenFor(user.id, { expiresInSeconds: 3600 }));
    // Past the first token's expiry, whose check would end the subscription had the new token not replaced it.
    await new Promise((resolve) => setTimeout(resolve, first.expiresAt + 1000 - Date.now()));

    const row = await insert('transactions', { user_id: user.id, amount: 3 });
    await waitForChange(subscriber, (c) => rowOf(c).id === row.id, 'a change after the first token expired');
    expect(subscriber.statuses).toEqual(['SUBSCRIBED']);
    expect(subscriber.system.filter((m) => m.status === 'error')).toEqual([]);
  });

  it('ends the subscription with an error when its token expires', async () => {
    const user = await newPerson();
    const short = await shortLivedToken(user.id);
    const subscriber = await subscribe(short.token, [{ event: 'INSERT', table: 'transactions' }]);
    const ended = await waitFor(
      () => subscriber.system.find((m) => m.status === 'error'),
      'the expiry error',
      short.expiresAt + 3000 - Date.now(),
    );
    expect(ended).toMatchObject({
      extension: 'system',
      message: expect.stringMatching(/^Token has expired \d+ seconds ago$/),
    });
    expect(subscriber.statuses).toEqual(['SUBSCRIBED', 'CLOSED']);

    await insert('transactions', { user_id: user.id, amount: 4 });
    // The same socket, on a token that has not expired.
    await subscriber.client.realtime.setAuth(await tokenFor(user.id));
    await untilLaterChangeArrives(subscriber.client, user.id);
    expect(subscriber.changes).toEqual([]);
  });

  it('ends the subscription when an expired token is pushed, and refuses to join with one', async () => {
    const user = await newPerson();
    const expired = await tokenFor(user.id, { expiresInSeconds: -5 });
    const subscriber = await subscribe(user.token, [{ event: 'INSERT', table: 'transactions' }]);
    await subscriber.client.realtime.setAuth(expired);
    const ended = await waitFor(() => subscriber.system.find((m) => m.status === 'error'), 'the refusal');
    expect(ended.message).toMatch(/^Token has expired \d+ seconds ago$/);
    await waitFor(() => (subscriber.statuses.includes('CLOSED') ? true : undefined), 'the channel to close');

    const refused = await subscribe(expired, [{ event: 'INSERT', table: 'transactions' }]);
    expect(refused.statuses[0]).toBe('CHANNEL_ERROR');
    expect(refused.errors[0]).toMatch(/InvalidJWTToken: Token has expired/);
  });
});

describe('the socket', () => {
  function rawSocket(query: string) {
    return new WebSocket(`${apiUrl.replace('http', 'ws')}/realtime/v1/websocket?${query}`);
  }

  it('refuses a connection without a valid API key, as Supabase does', async () => {
    for (const query of [
      'vsn=2.0.0',
      'apikey=not-a-jwt&vsn=2.0.0',
      `apikey=${await tokenFor(null, { role: 'anon', expiresInSeconds: -1 })}`,
    ]) {
      const status = await new Promise<number | undefined>((resolve) => {
        const socket = rawSocket(query);
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode));
        socket.on('open', () => resolve(101));
      });
      expect(status).toBe(403);
    }
  });

  it('answers heartbeats in both serializer versions (2.0.0 arrays, 1.0.0 objects)', async () => {
    const answers: unknown[] = [];
    for (const [vsn, heartbeat] of [
      ['2.0.0', JSON.stringify([null, '7', 'phoenix', 'heartbeat', {}])],
      ['1.0.0', JSON.stringify({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '7' })],
    ] as const) {
      const socket = rawSocket(`apikey=${anonKey}&vsn=${vsn}`);
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(heartbeat);
      answers.push(JSON.parse(String(await new Promise((resolve) => socket.once('message', resolve)))));
      socket.close();
    }
    expect(answers).toEqual([
      [null, '7', 'phoenix', 'phx_reply', { status: 'ok', response: {} }],
      {
        join_ref: null,
        ref: '7',
        topic: 'phoenix',
        event: 'phx_reply',
        payload: { status: 'ok', response: {} },
      },
    ]);
  });

  it('lets supabase-js reconnect and resubscribe by itself across a restart, without inventing what happened meanwhile', async () => {
    const user = await newPerson();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    async function start() {
      const restartable = createServer();
      const running = await attachRealtime(restartable, {
        databaseUrl,
        jwtKeys: await createJwtKeys({ secret: jwtSecret }),
      });
      await new Promise<void>((resolve) => restartable.listen(port, '127.0.0.1', resolve));
      return async () => {
        await running.close();
        await new Promise((resolve) => restartable.close(resolve));
      };
    }
    let stop = await start();
    const subscriber = await subscribe(user.token, [{ event: 'INSERT', table: 'transactions' }], url);
    const before = await insert('transactions', { user_id: user.id, amount: 5 });
    await waitForChange(subscriber, (c) => rowOf(c).id === before.id, 'the change before the restart');

    await stop();
    const whileAway = await insert('transactions', { user_id: user.id, amount: 6 });
    stop = await start();
    await waitFor(
      () => (subscriber.statuses.filter((s) => s === 'SUBSCRIBED').length === 2 ? true : undefined),
      'the client to resubscribe',
      15_000,
    );
    const after = await insert('transactions', { user_id: user.id, amount: 7 });
    await waitForChange(subscriber, (c) => rowOf(c).id === after.id, 'the change after the restart');
    expect(subscriber.changes.map((c) => rowOf(c).id)).toEqual([before.id, after.id]);
    expect(subscriber.changes.map((c) => rowOf(c).id)).not.toContain(whileAway.id);

    await subscriber.client.removeAllChannels();
    await stop();
  });
});
