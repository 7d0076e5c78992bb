import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import {
  asOperator,
  faultStackForFile,
  insertBuyRequest,
  listenToBuyRequests,
  waitUntil,
} from '../support/fault-stack';

const rowBytes = 256 * 1024;
// 12 MB: past what the kernel's socket buffers absorb on loopback (a few MB), then past the bound.
const rows = 48;

/**
 * A client that joins a channel of large rows and stops reading while 12 MB of them are committed, and a
 * bystander listening to their buy requests: what each of them sees.
 */
async function slowReaderAmongOthers(fault: ReturnType<typeof faultStackForFile>) {
  await asOperator(
    fault.stack,
    `create table public.slow_reader_notes (id bigint generated always as identity primary key, body text not null);
     alter table public.slow_reader_notes enable row level security;
     create policy "Signed-in people can read the notes" on public.slow_reader_notes for select to authenticated using (true);
     grant select on table public.slow_reader_notes to authenticated;
     alter publication supabase_realtime add table public.slow_reader_notes;`,
  );
  const bystander = await listenToBuyRequests(fault.stack, fault.person(1));

  const url = new URL('/realtime/v1/websocket', fault.stack.apiUrl);
  url.protocol = 'ws:';
  url.search = new URLSearchParams({ apikey: fault.stack.anonKey, vsn: '2.0.0' }).toString();
  const slowReader = new WebSocket(url);
  const received: string[] = [];
  let joined = false;
  slowReader.on('message', (data: Buffer) => {
    const [, , , event] = JSON.parse(data.toString()) as [unknown, unknown, string, string];
    if (event === 'phx_reply') joined = true;
    if (event === 'postgres_changes') received.push(event);
  });
  let closeCode: number | undefined;
  slowReader.on('close', (code) => (closeCode = code));
  // Its cut-off may also reach it as a reset connection: the close code is what it is told.
  slowReader.on('error', () => undefined);
  await new Promise((resolve) => slowReader.once('open', resolve));
  slowReader.send(
    JSON.stringify([
      '1',
      '1',
      'realtime:slow-reader',
      'phx_join',
      {
        access_token: fault.person().accessToken,
        config: { postgres_changes: [{ event: 'INSERT', schema: 'public', table: 'slow_reader_notes' }] },
      },
    ]),
  );
  await waitUntil(() => joined, 'the slow reader to join');
  slowReader.pause();

  await asOperator(
    fault.stack,
    `insert into public.slow_reader_notes (body) select repeat('x', ${rowBytes}) from generate_series(1, ${rows})`,
  );
  // Realtime is not held up by the client that does not read.
  const after = await insertBuyRequest(fault.stack, fault.person(1));
  await waitUntil(() => bystander.changes.includes(after), 'the bystander’s change');

  // Read again: the connection has ended without a close frame (1006), as when Supabase Realtime kills
  // a socket's process, and what was not sent by then never will be (realtime-js reconnects and rejoins).
  slowReader.resume();
  await waitUntil(() => closeCode !== undefined, 'the slow reader to be cut off');
  return { closeCode, received, bystander };
}

describe('a Realtime client that stops reading', () => {
  const fault = faultStackForFile({ people: 2, gateway: { realtimeMaxBufferedBytes: 1024 * 1024 } });

  it('is cut off once more than the bound waits unsent for it, while other subscribers keep receiving', async () => {
    const { closeCode, received, bystander } = await slowReaderAmongOthers(fault);
    expect(bystander.statuses).toEqual(['SUBSCRIBED']);
    expect(closeCode).toBe(1006);
    expect(received.length).toBeLessThan(rows);
  });
});

describe('Realtime clients holding unsent frames together', () => {
  // Each socket's own bound is far away: only the budget all sockets share can cut the slow reader off.
  const fault = faultStackForFile({
    people: 2,
    gateway: { realtimeMaxBufferedBytes: 64 * 1024 * 1024, realtimeMaxUnsentBytes: 1024 * 1024 },
  });

  it('cut off the client holding most once all of them hold more than the shared budget, while the others keep receiving', async () => {
    const { closeCode, received, bystander } = await slowReaderAmongOthers(fault);
    expect(bystander.statuses).toEqual(['SUBSCRIBED']);
    expect(closeCode).toBe(1006);
    expect(received.length).toBeLessThan(rows);
  });
});
