import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { liveTopics } from '@/lib/table-changes';
import { createNodeClient } from '../support/node-client';
import { connectAsOperator, asOperator, faultStackForFile, waitUntil } from '../support/fault-stack';

const fault = faultStackForFile();

/** Whether a buy request is there for a new snapshot (the app's re-read on a message). */
async function readableNow(id: string): Promise<boolean> {
  const reader = await connectAsOperator(fault.stack);
  try {
    const { rowCount } = await reader.query('select 1 from public.buy_requests where id = $1', [id]);
    return rowCount === 1;
  } finally {
    await reader.end();
  }
}

/** Whether the gateway's Realtime has asked Postgres whether a transaction is visible yet. */
async function realtimeAskedAboutVisibility(): Promise<boolean> {
  const operator = await connectAsOperator(fault.stack);
  try {
    const { rowCount } = await operator.query(
      `select 1 from pg_stat_activity
       where application_name = 'coinvault-realtime-visibility' and query like '%pg_current_snapshot%'`,
    );
    return rowCount !== null && rowCount > 0;
  } finally {
    await operator.end();
  }
}

async function waitForSetting(session: pg.Client, value: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { rows } = await session.query<{ value: string }>(
      `select current_setting('synchronous_standby_names') as value`,
    );
    if (rows[0]?.value === value) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for the setting ${value}`);
  }
}

describe('a broadcast of a transaction committed but not yet visible to other sessions', () => {
  it('is held until a new read sees the change, so the app’s re-read on the message never reads the old state', async () => {
    const person = fault.person();
    const client = createNodeClient(fault.stack.apiUrl, fault.stack.anonKey);
    await client.realtime.setAuth(person.accessToken);
    const arrivals: { id: string; readable: Promise<unknown> }[] = [];
    let joined = false;
    const channel = client
      .channel(liveTopics.wallet(person.id), { config: { private: true } })
      .on('broadcast', { event: 'buy_requests' }, ({ payload }) => {
        const id = (payload as { record: { id: string } }).record.id;
        // Awaited later: a failed read settles now as the value the expectation shows, never unhandled.
        arrivals.push({ id, readable: readableNow(id).catch((error: unknown) => error) });
      })
      .subscribe((status) => (joined ||= status === 'SUBSCRIBED'));
    const writer = await connectAsOperator(fault.stack);
    try {
      await waitUntil(() => joined, 'the wallet channel to join');
      // A commit that waits for a synchronous standby that never answers is flushed (so logical
      // replication streams it) but stays invisible to other sessions: the window a busy machine opens
      // for milliseconds, held open until the wait is cancelled.
      await asOperator(fault.stack, `alter system set synchronous_standby_names = 'never_connected'`);
      await asOperator(fault.stack, 'select pg_reload_conf()');
      // The reload reaches each session by a signal: the writer's own view of the setting is the witness.
      await waitForSetting(writer, 'never_connected');
      const { rows } = await writer.query<{ pid: number }>('select pg_backend_pid() as pid');
      const committing = writer.query(
        `insert into public.buy_requests (user_id, cryptocurrency, amount) values ($1, 'bitcoin', 10)`,
        [person.id],
      );
      // Awaited below, unless the wait before throws: then the writer's end rejects it, unhandled no more.
      committing.catch(() => undefined);
      // Either the message came while the row was invisible, or Realtime holds it and asks Postgres.
      const deadline = Date.now() + 15_000;
      while (arrivals.length === 0 && !(await realtimeAskedAboutVisibility())) {
        if (Date.now() > deadline)
          throw new Error('timed out waiting for the message or the visibility check');
      }
      await asOperator(fault.stack, `select pg_cancel_backend(${rows[0]?.pid ?? 0})`);
      await committing;

      await waitUntil(() => arrivals.length === 1, 'the buy request’s message');
      expect(await arrivals[0]?.readable).toBe(true);
    } finally {
      // No standby required any more: a commit still waiting (a failed run) completes.
      await asOperator(fault.stack, 'alter system reset synchronous_standby_names');
      await asOperator(fault.stack, 'select pg_reload_conf()');
      await writer.end();
      await client.removeChannel(channel);
      client.realtime.disconnect();
    }
  });
});
