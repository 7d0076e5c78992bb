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
