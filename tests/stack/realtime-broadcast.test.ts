import { randomUUID } from 'node:crypto';
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addBuyRequest, createUser, type CreatedUser } from '../support/db';

/**
 * Broadcast from the database on private topics, as supabase-js sees it through the local stack's
 * Realtime (Supabase Realtime's join-time authorization, lib/realtime/tenants/authorization.ex; its
 * broadcast frames, lib/realtime_web/socket/v2_serializer.ex). The topics and their policies are the
 * app's (supabase/migrations/20261127000300_broadcast_topics.sql).
 */
interface Broadcast {
  event: string;
  payload: {
    table: string;
    operation: string;
    record: Record<string, unknown> | null;
    old_record: Record<string, unknown> | null;
    id: string;
  };
  meta?: { id: string };
}
interface SystemMessage {
  extension: string;
  status: string;
  message: string;
}
interface Listener {
  client: SupabaseClient;
  channel: RealtimeChannel;
  broadcasts: Broadcast[];
  system: SystemMessage[];
  statuses: string[];
  errors: string[];
}

const apiUrl = inject('apiUrl');
const anonKey = inject('anonKey');
const databaseUrl = inject('databaseUrl');
const secretKey = new TextEncoder().encode(inject('jwtSecret'));
const clients: SupabaseClient[] = [];
let db: pg.Client;

function tokenFor(userId: string, aal: 'aal1' | 'aal2' = 'aal1', expiresInSeconds = 3600) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role: 'authenticated', aud: 'authenticated', sub: userId, aal })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(secretKey);
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

/** A supabase-js client joining `topic` as the app does (private), with `token`; resolves on the first answer. */
async function join(
  topic: string,
  token: string,
  { vsn }: { vsn?: '1.0.0' | '2.0.0' } = {},
): Promise<Listener> {
  const client = createClient(apiUrl, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never, params: { log_level: 'error' }, ...(vsn ? { vsn } : {}) },
  });
  clients.push(client);
  await client.realtime.setAuth(token);
  const channel = client.channel(topic, { config: { private: true } });
  const listener: Listener = { client, channel, broadcasts: [], system: [], statuses: [], errors: [] };
  channel.on('broadcast', { event: '*' }, (message: Broadcast) => listener.broadcasts.push(message));
  channel.on('system', {}, (message: SystemMessage) => listener.system.push(message));
  channel.subscribe((status, error) => {
    listener.statuses.push(status);
    if (error) listener.errors.push(error.message);
  });
  await waitFor(() => (listener.statuses.length > 0 ? true : undefined), `an answer to the join of ${topic}`);
  return listener;
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.removeAllChannels()));
  await db?.end();
});

describe('joining private topics', () => {
  let person: CreatedUser;
  let other: CreatedUser;
  let admin: CreatedUser;
  beforeAll(async () => {
    person = await createUser(db);
    other = await createUser(db);
    admin = await createUser(db, { admin: true });
  });

  it('lets a person join their own wallet and account topics', async () => {
    const token = await tokenFor(person.id);
    for (const topic of [`user:${person.id}:wallet`, `user:${person.id}:account`]) {
      expect((await join(topic, token)).statuses).toEqual(['SUBSCRIBED']);
    }
  });

  it('refuses a person another person’s topics and the admin topic, naming the topic', async () => {
    const token = await tokenFor(person.id);
    for (const topic of [`user:${other.id}:wallet`, `user:${other.id}:account`, 'admin:queues']) {
      const listener = await join(topic, token);
      expect(listener.statuses[0]).toBe('CHANNEL_ERROR');
      expect(listener.errors[0]).toBe(
        `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`,
      );
      listener.channel.unsubscribe();
    }
  });

  it('refuses the admin topic to an admin at aal1 and admits the same admin at aal2', async () => {
    const atAal1 = await join('admin:queues', await tokenFor(admin.id, 'aal1'));
    expect(atAal1.statuses[0]).toBe('CHANNEL_ERROR');
    atAal1.channel.unsubscribe();
    expect((await join('admin:queues', await tokenFor(admin.id, 'aal2'))).statuses).toEqual(['SUBSCRIBED']);
  });

  it('refuses the wallet topic to a person with a verified factor until their session is aal2', async () => {
    const withFactor = await createUser(db, { twoFactor: true });
    const topic = `user:${withFactor.id}:wallet`;
    const atAal1 = await join(topic, await tokenFor(withFactor.id, 'aal1'));
    expect(atAal1.statuses[0]).toBe('CHANNEL_ERROR');
    atAal1.channel.unsubscribe();
    expect((await join(topic, await tokenFor(withFactor.id, 'aal2'))).statuses).toEqual(['SUBSCRIBED']);
  });

  /** The reason a private join of the person's account topic with `config` is refused. */
  async function refusalOf(config: Record<string, unknown>) {
    const client = createClient(apiUrl, anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    clients.push(client);
    await client.realtime.setAuth(await tokenFor(person.id));
    const errors: string[] = [];
    client
      .channel(`user:${person.id}:account`, { config: { private: true, ...config } })
      .subscribe((_status, error) => error && errors.push(error.message));
    return waitFor(() => errors[0], 'the refusal');
  }

  it('refuses broadcast replay and presence by name, as the local stack serves neither', async () => {
    expect(await refusalOf({ broadcast: { replay: { since: Date.now() - 60_000 } } })).toBe(
      'broadcast replay is not served by the local stack (postgres_changes and broadcasts from the database only)',
    );
    expect(await refusalOf({ presence: { enabled: true } })).toBe(
      'presence is not served by the local stack (postgres_changes and broadcasts from the database only)',
    );
  });
});

describe('broadcasts of the person’s changes', () => {
  it('delivers a new buy request to its owner’s wallet topic and the admins’ topic, and to nobody else', async () => {
    const person = await createUser(db, { deposit: 100 });
    const other = await createUser(db);
    const admin = await createUser(db, { admin: true });
    const own = await join(`user:${person.id}:wallet`, await tokenFor(person.id));
    const others = await join(`user:${other.id}:wallet`, await tokenFor(other.id));
    const queues = await join('admin:queues', await tokenFor(admin.id, 'aal2'));

    const requestId = await addBuyRequest(db, person.id, 25);
    // The witness: a later change of the other person reaches them, so theirs was not merely late.
    await db.query(
      `insert into public.transactions (user_id, type, amount, status) values ($1, 'deposit', 5, 'pending')`,
      [other.id],
    );
    for (const listener of [own, queues]) {
      const delivered = await waitFor(
        () =>
          listener.broadcasts.find((b) => b.event === 'buy_requests' && b.payload.record?.id === requestId),
        'the buy request',
      );
      expect(delivered.payload).toMatchObject({
        table: 'buy_requests',
        operation: 'INSERT',
        record: { id: requestId, user_id: person.id, status: 'pending' },
        old_record: null,
      });
      expect(delivered.meta?.id).toBe(delivered.payload.id);
    }
    await waitFor(
      () => others.broadcasts.find((b) => b.event === 'transactions'),
      'the other person’s own change',
    );
    expect(others.broadcasts.map((b) => b.event)).toEqual(['transactions']);
  });

  it('never sends a withdraw request’s encrypted_data, to its owner or the admins', async () => {
    const person = await createUser(db, { deposit: 100 });
    const admin = await createUser(db, { admin: true });
    const own = await join(`user:${person.id}:wallet`, await tokenFor(person.id));
    const queues = await join('admin:queues', await tokenFor(admin.id, 'aal2'));
    const ciphertext = `iv-${randomUUID()}.ciphertext.wrapped-key`;
    const { rows } = await db.query<{ id: string }>(
      `insert into public.withdraw_requests (user_id, amount, withdraw_method, encrypted_data)
       values ($1, 10, 'bank', $2) returning id`,
      [person.id, ciphertext],
    );
    await db.query(`update public.withdraw_requests set status = 'rejected' where id = $1`, [rows[0]?.id]);
    for (const listener of [own, queues]) {
      await waitFor(
        () =>
          listener.broadcasts.filter((b) => b.event === 'withdraw_requests').length === 2 ? true : undefined,
        'the insert and the update',
      );
      expect(JSON.stringify(listener.broadcasts)).not.toContain(ciphertext);
      for (const { payload } of listener.broadcasts) {
        expect(Object.keys(payload.record ?? {})).not.toContain('encrypted_data');
        expect(Object.keys(payload.old_record ?? {})).not.toContain('encrypted_data');
      }
    }
  });

  it('sends the same broadcast to a client speaking serializer 1.0.0', async () => {
    const person = await createUser(db);
    const own = await join(`user:${person.id}:account`, await tokenFor(person.id), { vsn: '1.0.0' });
    await db.query(
      `select private.notify($1, 'deposit.completed', 'Deposit completed', 'A test notification')`,
      [person.id],
    );
    const delivered = await waitFor(() => own.broadcasts[0], 'the notification');
    expect(delivered).toMatchObject({
      event: 'notifications',
      payload: { table: 'notifications', operation: 'INSERT' },
    });
  });
});

describe('a token change on a joined private channel', () => {
  it('keeps the channel while the new token may still read the topic', async () => {
    const person = await createUser(db);
    const own = await join(`user:${person.id}:account`, await tokenFor(person.id, 'aal1', 3600));
    await own.client.realtime.setAuth(await tokenFor(person.id, 'aal1', 7200));
    await db.query(
      `select private.notify($1, 'deposit.completed', 'Deposit completed', 'A test notification')`,
      [person.id],
    );
    await waitFor(() => own.broadcasts[0], 'a broadcast after the token changed');
    expect(own.system).toEqual([]);
  });

  it('closes the channel, saying why, when the new token may no longer read it', async () => {
    const admin = await createUser(db, { admin: true });
    const queues = await join('admin:queues', await tokenFor(admin.id, 'aal2'));
    await queues.client.realtime.setAuth(await tokenFor(admin.id, 'aal1'));
    const closed = await waitFor(() => queues.system[0], 'the system message');
    expect(closed).toMatchObject({
      extension: 'system',
      status: 'error',
      message: 'You do not have permissions to read from this Channel topic: admin:queues',
    });
    await waitFor(() => (queues.statuses.includes('CLOSED') ? true : undefined), 'the close');
  });
});
