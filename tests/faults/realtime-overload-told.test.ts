import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { liveTopics } from '@/lib/table-changes';
import { createNodeClient } from '../support/node-client';
import { connectAsOperator, faultStackForFile, waitUntil } from '../support/fault-stack';

// 12 MB of broadcasts: past what the kernel's socket buffers absorb on loopback, then past the budget.
const bodyBytes = 8 * 1024;
const burst = 1500;

/**
 * Realtime past what a subscriber reads (issue 29: at 800 changes/s with 100 subscribers, 1.2 % of
 * deliveries never arrived): every subscriber of a topic either gets every broadcast, or loses its
 * connection, which realtime-js answers by rejoining (and the app by reading again). Never a silent gap.
 */
describe('a burst of broadcasts past what one subscriber reads', () => {
  const fault = faultStackForFile({
    gateway: { realtimeMaxBufferedBytes: 64 * 1024 * 1024, realtimeMaxUnsentBytes: 4 * 1024 * 1024 },
  });

  it('gives each subscriber every broadcast or tells it (a cut-off connection, a rejoin), never a silent gap', async () => {
    const person = fault.person();
    const topic = liveTopics.account(person.id);
    const readers = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const client = createNodeClient(fault.stack.apiUrl, fault.stack.anonKey);
        await client.realtime.setAuth(person.accessToken);
        const reader = { client, titles: new Set<string>(), statuses: [] as string[] };
        client
          .channel(topic, { config: { private: true } })
          .on(
            'broadcast',
            { event: 'notifications' },
            ({ payload }: { payload: { record: { title: string } } }) =>
              reader.titles.add(payload.record.title),
          )
          .subscribe((status) => reader.statuses.push(status));
        await waitUntil(() => reader.statuses.includes('SUBSCRIBED'), 'a reader to join');
        return reader;
      }),
    );

    const url = new URL('/realtime/v1/websocket', fault.stack.apiUrl);
    url.protocol = 'ws:';
    url.search = new URLSearchParams({ apikey: fault.stack.anonKey, vsn: '2.0.0' }).toString();
    const slowReader = new WebSocket(url);
    let joined = false;
    let closeCode: number | undefined;
    slowReader.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary && (JSON.parse(data.toString()) as unknown[])[3] === 'phx_reply') joined = true;
    });
    slowReader.on('close', (code) => (closeCode = code));
    await new Promise((resolve) => slowReader.once('open', resolve));
    slowReader.send(
      JSON.stringify([
        '1',
        '1',
        `realtime:${topic}`,
        'phx_join',
        { access_token: person.accessToken, config: { private: true } },
      ]),
    );
    await waitUntil(() => joined, 'the slow reader to join');
    slowReader.pause();

    const operator = await connectAsOperator(fault.stack);
    try {
      await operator.query(
        `insert into public.notifications (user_id, kind, title, body)
         select $1, 'deposit.completed', 'burst ' || n, repeat('x', $2) from generate_series(1, $3) n`,
        [person.id, bodyBytes, burst],
      );
      // The witness: committed after the burst, so a reader that has it had its turn at all before it.
      await operator.query(
        `insert into public.notifications (user_id, kind, title, body) values ($1, 'deposit.completed', 'after', 'x')`,
        [person.id],
      );
    } finally {
      await operator.end();
    }

    // Each reader has every broadcast, or was told it may have missed some (CHANNEL_ERROR, then a rejoin).
    const told = (reader: (typeof readers)[number]) => reader.statuses.includes('CHANNEL_ERROR');
    for (const reader of readers) {
      await waitUntil(() => reader.titles.has('after') || told(reader), 'the witness or a told gap', 60_000);
    }
    for (const reader of readers) {
      if (told(reader)) {
        await waitUntil(() => reader.statuses.at(-1) === 'SUBSCRIBED', 'the told reader to rejoin');
      } else {
        expect(reader.titles.size).toBe(burst + 1);
        expect(reader.statuses).toEqual(['SUBSCRIBED']);
      }
      await reader.client.removeAllChannels();
    }
    expect(readers.some((reader) => !told(reader))).toBe(true);
    slowReader.resume();
    await waitUntil(() => closeCode !== undefined, 'the slow reader to be cut off');
    // Without a close frame, as Supabase Realtime kills a socket's process: realtime-js reconnects and rejoins.
    expect(closeCode).toBe(1006);
  });
});
