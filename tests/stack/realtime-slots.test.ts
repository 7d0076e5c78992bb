import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * Replication slot hygiene: Realtime's slots (one for Postgres Changes, one for the broadcasts written to
 * realtime.messages, as hosted) are temporary, so however the process ends (stop, crash, kill -9) Postgres
 * drops them and WAL is never held back for a reader that is gone.
 */
const databaseUrl = inject('databaseUrl');
const serveScript = new URL('../../devstack/src/realtime/serve.ts', import.meta.url).pathname;
let db: pg.Client;

/** Realtime alone in its own Node process (no npx or shell in between, so the pid is Realtime's). */
async function startRealtimeProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', serveScript, '--database-url', databaseUrl], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (!child.stdout) throw new Error('no stdout from the realtime process');
  const lines = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`realtime exited early (${code})`)));
    lines.on('line', (line) => {
      if (line.includes('"ready":true')) resolve();
    });
  });
  return child;
}

async function slotsOf(pid: number | undefined) {
  const { rows } = await db.query<{ slot_name: string; temporary: boolean; active: boolean }>(
    `select slot_name, temporary, active from pg_replication_slots where slot_name like $1`,
    [`realtime\\_${pid}\\_%`],
  );
  return rows;
}

async function waitUntilNoSlot(pid: number | undefined) {
  const deadline = Date.now() + 10_000;
  while ((await slotsOf(pid)).length > 0) {
    if (Date.now() > deadline) throw new Error(`slot of process ${pid} still there after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
});

describe('replication slots', () => {
  it('streams from two temporary slots per running Realtime and none is left after kill -9', async () => {
    const crashing = await startRealtimeProcess();
    const slot = { slot_name: expect.stringMatching(/^realtime_/), temporary: true, active: true };
    expect(await slotsOf(crashing.pid)).toEqual([slot, slot]);

    const exited = new Promise((resolve) => crashing.once('exit', resolve));
    crashing.kill('SIGKILL');
    await exited;
    await waitUntilNoSlot(crashing.pid);
  });

  it('makes fresh slots after a restart and drops them on a normal stop', async () => {
    const restarted = await startRealtimeProcess();
    expect(await slotsOf(restarted.pid)).toHaveLength(2);

    const exited = new Promise((resolve) => restarted.once('exit', resolve));
    restarted.kill('SIGTERM');
    await exited;
    await waitUntilNoSlot(restarted.pid);
  });

  it('leaves no inactive slot behind that could hold WAL back', async () => {
    const { rows } = await db.query(
      `select slot_name from pg_replication_slots where not active or not temporary`,
    );
    expect(rows).toEqual([]);
  });
});
