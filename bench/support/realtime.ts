import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import {
  createClient,
  type RealtimePostgresChangesPayload,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import type pg from 'pg';
import WebSocket from 'ws';
import { localDefaults } from '../../devstack/src/config';
import { withBenchDatabase } from './database';

/** Realtime benches: people with tokens, Realtime in its own process, and supabase-js ledger subscribers. */

export interface BenchPerson {
  id: string;
  admin: boolean;
  token: string;
}

const secretKey = new TextEncoder().encode(localDefaults.jwtSecret);
const serveScript = new URL('../../devstack/src/realtime/serve.ts', import.meta.url).pathname;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const now = () => performance.timeOrigin + performance.now();

/** Waits until `done()` holds or `timeoutMs` has passed, looking every `pollMs`. */
export async function waitUntil(done: () => boolean, timeoutMs: number, pollMs: number): Promise<void> {
  const deadline = now() + timeoutMs;
  while (!done() && now() < deadline) await sleep(pollMs);
}

/**
 * Commits `total` single-row deposits at `perSecond`, to `owners` in turn, from `writers` connections at once,
 * paced by the clock (not by sleeps adding up) so the rate holds; tells `committed` each row's id and owner.
 * Answers the seconds the writing took.
 */
export async function commitDepositsAtRate(
  pool: pg.Pool,
  {
    total,
    perSecond,
    writers = 1,
    owners,
    committed,
  }: {
    total: number;
    perSecond: number;
    writers?: number;
    owners: readonly BenchPerson[];
    committed: (id: string, owner: BenchPerson) => void;
  },
): Promise<number> {
  let next = 0;
  const started = now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let index = next++; index < total; index = next++) {
        const due = started + (index * 1000) / perSecond;
        if (due > now()) await sleep(due - now());
        const owner = owners[index % owners.length] as BenchPerson;
        const { rows } = await pool.query<{ id: string }>(
          `insert into public.transactions (user_id, type, amount, status) values ($1, 'deposit', 10, 'pending')
           returning id`,
          [owner.id],
        );
        committed(rows[0]?.id ?? '', owner);
      }
    }),
  );
  return (now() - started) / 1000;
}

export async function createPeople(pool: pg.Pool, count: number, admins: number): Promise<BenchPerson[]> {
  const people: BenchPerson[] = [];
  for (let index = 0; index < count; index++) {
    const id = randomUUID();
    const admin = index < admins;
    await pool.query(
      `insert into auth.users (id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ($1, 'authenticated', 'authenticated', $2, '{"provider":"email"}', '{"full_name":"Bench Person"}', now(), now())`,
      [id, `bench-${id}@example.com`],
    );
    if (admin) await pool.query(`update public.profiles set role = 'admin' where id = $1`, [id]);
    // Admins work at aal2: an admin's token is one that verified their code.
    const token = await new SignJWT({
      role: 'authenticated',
      aud: 'authenticated',
      sub: id,
      aal: admin ? 'aal2' : 'aal1',
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(secretKey);
    people.push({ id, admin, token });
  }
  return people;
}

/** Realtime alone in its own process (devstack/src/realtime/serve.ts), so its memory and event loop are its own. */
export async function startRealtime(databaseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', serveScript, '--database-url', databaseUrl], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (!child.stdout) throw new Error('no stdout from the realtime process');
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`realtime exited (${code})`)));
    lines.on('line', (line) => {
      const message = JSON.parse(line) as { ready?: boolean; port?: number };
      if (message.ready && message.port) resolve(message.port);
    });
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

export async function stopRealtime(realtime: { child: ChildProcess } | undefined) {
  if (!realtime || realtime.child.exitCode !== null) return;
  const exited = new Promise((resolve) => realtime.child.once('exit', resolve));
  realtime.child.kill('SIGTERM');
  await exited;
}

/** Resident memory of a process now (`VmRSS`) or at its peak (`VmHWM`), in MB. */
export async function residentMegabytes(pid: number | undefined, which: 'VmRSS' | 'VmHWM' = 'VmRSS') {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(new RegExp(`${which}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return kilobytes / 1024;
}

/**
 * A supabase-js client listening to ledger inserts as the app does: people their own rows, admins the
 * whole ledger. `onChange` gets each arrival's row id and latency (arrival − `commit_timestamp`);
 * `onTold`, once joined, each time the channel is told it may have missed changes (CHANNEL_ERROR, as on
 * a gap report or a connection cut off; realtime-js then rejoins and the app reads again).
 */
export async function subscribeToLedger(
  url: string,
  person: BenchPerson,
  onChange: (id: string, latencyMs: number) => void,
  onTold: () => void = () => undefined,
): Promise<SupabaseClient> {
  const client = createClient(url, localDefaults.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  await client.realtime.setAuth(person.token);
  let joined = false;
  await new Promise<void>((resolve, reject) => {
    client
      .channel(`ledger-${person.id}`)
      .on(
        'postgres_changes',
        {
          event: 'INSERT',
          schema: 'public',
          table: 'transactions',
          ...(person.admin ? {} : { filter: `user_id=eq.${person.id}` }),
        },
        (change: RealtimePostgresChangesPayload<Record<string, unknown>>) => {
          onChange(String((change.new as { id?: unknown }).id), now() - Date.parse(change.commit_timestamp));
        },
      )
      .subscribe((status, error) => {
        if (status === 'SUBSCRIBED') joined = true;
        if (status === 'SUBSCRIBED') resolve();
        if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
          if (joined) onTold();
          else reject(error ?? new Error(status));
        }
      });
  });
  return client;
}

/**
 * A supabase-js client joined to the person's private wallet topic as the app joins it. `onBroadcast`
 * gets each ledger broadcast's row id and latency (arrival − the row's `date`, its transaction's start).
 */
export async function subscribeToWalletTopic(
  url: string,
  person: BenchPerson,
  onBroadcast: (id: string, latencyMs: number) => void,
): Promise<SupabaseClient> {
  const client = createClient(url, localDefaults.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  await client.realtime.setAuth(person.token);
  await new Promise<void>((resolve, reject) => {
    client
      .channel(`user:${person.id}:wallet`, { config: { private: true } })
      .on(
        'broadcast',
        { event: 'transactions' },
        ({ payload }: { payload: { record?: { id?: unknown; date?: unknown } } }) => {
          const record = payload.record ?? {};
          onBroadcast(String(record.id), now() - Date.parse(String(record.date)));
        },
      )
      .subscribe((status, error) => {
        if (status === 'SUBSCRIBED') resolve();
        if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(error ?? new Error(status));
      });
  });
  return client;
}

/** What a Realtime bench runs against (see `withRealtimeBench`). */
export interface RealtimeBench {
  /** Its data folder, for `postgresCpuMs`. */
  dataDir: string;
  pool: pg.Pool;
  people: BenchPerson[];
  realtime: { child: ChildProcess; url: string };
}

/**
 * Ends subscribers' channels and closes their sockets, and waits for both: a socket still open when the
 * bench stops Realtime tries to reconnect every 10 s, and its timers kept the bench's process alive (a
 * `npm run bench` hung after realtime-broadcast, 1,964 reconnect timers pending).
 */
export async function closeSubscribers(clients: readonly SupabaseClient[]): Promise<void> {
  await Promise.all(clients.map((client) => client.removeAllChannels()));
  await Promise.all(clients.map((client) => client.realtime.disconnect()));
}

/**
 * Runs `bench` against its own unseeded Postgres with `people` bench people (the first `admins` of them
 * admins) and Realtime in its own process, through a pool of `connections`; stops all three after.
 */
export async function withRealtimeBench(
  { people, admins, connections }: { people: number; admins: number; connections: number },
  bench: (setUp: RealtimeBench) => Promise<void>,
): Promise<void> {
  await withBenchDatabase({ connections }, async ({ url, dataDir, pool }) => {
    let realtime: RealtimeBench['realtime'] | undefined;
    try {
      const created = await createPeople(pool, people, admins);
      realtime = await startRealtime(url);
      await bench({ dataDir, pool, people: created, realtime });
    } finally {
      await stopRealtime(realtime);
    }
  });
}
