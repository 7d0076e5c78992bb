import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeClient } from '../support/node-client';
import {
  call,
  insertBuyRequest,
  listenToBuyRequests,
  restHeaders,
  faultStackForFile,
  waitUntil,
  type Listener,
} from '../support/fault-stack';

const fault = faultStackForFile({ people: 2 });

let bystanderListens: Listener;

beforeAll(async () => {
  bystanderListens = await listenToBuyRequests(fault.stack, fault.person(1));
});

/** The fault.person(1)'s deliveries continue: a new buy request of theirs arrives on their channel. */
async function bystanderStillReceives() {
  const id = await insertBuyRequest(fault.stack, fault.person(1));
  await waitUntil(() => bystanderListens.changes.includes(id), "the fault.person(1)'s change");
  expect(bystanderListens.statuses).toEqual(['SUBSCRIBED']);
}

describe('hostile callers are refused, and only they', () => {
  it('refuses a subscription with a malformed filter at join, for that channel alone', async () => {
    const hostile = await listenToBuyRequests(fault.stack, fault.person(), 'user_id=eq.not-a-uuid');
    expect(hostile.statuses[0]).toBe('CHANNEL_ERROR');
    expect(hostile.errors[0]).toMatch(/Error parsing `filter` params: not-a-uuid is not a valid uuid/);
    await bystanderStillReceives();
    await hostile.client.removeAllChannels();
  });

  it('refuses a 101st channel on one connection (max_channels_per_client 100)', async () => {
    const client = createNodeClient(fault.stack.apiUrl, fault.stack.anonKey);
    await client.realtime.setAuth(fault.person().accessToken);
    const statuses: { status: string; error?: string }[] = [];
    for (let index = 0; index < 101; index++) {
      client
        .channel(`flood-${index}-${randomUUID()}`)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'buy_requests' }, () => undefined)
        .subscribe((status, error) => {
          if (!statuses[index]) statuses[index] = { status, error: error?.message };
        });
      // Under Supabase's joins-per-second limit (100), so that only the channel count decides.
      if (index % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 1_100));
    }
    await waitUntil(() => statuses.filter(Boolean).length === 101, 'every join to be answered', 30_000);
    expect(statuses.slice(0, 100).every((answer) => answer.status === 'SUBSCRIBED')).toBe(true);
    expect(statuses[100]).toEqual({
      status: 'CHANNEL_ERROR',
      error: 'ChannelRateLimitReached: Too many channels',
    });
    await bystanderStillReceives();
    await client.removeAllChannels();
  });

  it('answers the mailbox (sign-in and recovery links) to its own origin on loopback only, never to another site', async () => {
    const fromOtherSite = await fetch(`${fault.stack.apiUrl}/mailbox`, {
      headers: { Origin: 'https://evil.example' },
    });
    expect(fromOtherSite.status).toBe(403);
    expect(fromOtherSite.headers.get('access-control-allow-origin')).toBeNull();
    const crossSiteWithoutOrigin = await fetch(`${fault.stack.apiUrl}/mailbox`, {
      headers: { 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(crossSiteWithoutOrigin.status).toBe(403);
    const ownPage = await fetch(`${fault.stack.apiUrl}/mailbox`, { headers: { Origin: fault.stack.apiUrl } });
    expect(ownPage.status).toBe(200);
    expect(ownPage.headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(`${fault.stack.apiUrl}/mailbox`)).status).toBe(200);
  });

  it('refuses joins past 100 per second on one connection (max_joins_per_second), and only there', async () => {
    const socket = new WebSocket(
      `${fault.stack.apiUrl.replace('http', 'ws')}/realtime/v1/websocket?apikey=${fault.stack.anonKey}&vsn=2.0.0`,
    );
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const replies: string[] = [];
    socket.on('message', (data: Buffer) => {
      const [, , , event, payload] = JSON.parse(data.toString()) as [
        string,
        string,
        string,
        string,
        { status?: string; response?: { reason?: string } },
      ];
      if (event === 'phx_reply') replies.push(payload.response?.reason ?? payload.status ?? '');
    });
    // The same topic joined again and again: never more than one channel, only the rate is exceeded.
    for (let ref = 1; ref <= 110; ref++) {
      socket.send(JSON.stringify([String(ref), String(ref), 'realtime:rejoins', 'phx_join', { config: {} }]));
    }
    await waitUntil(() => replies.length === 110, 'every join to be answered');
    socket.close();
    expect(replies.filter((reply) => reply === 'ok').length).toBeLessThanOrEqual(100);
    expect(replies).toContain('ClientJoinRateLimitReached: Too many joins per second');
    await bystanderStillReceives();
  });

  it('answers an internal failure 500 without its internal text', async () => {
    // A malformed percent-escape in a path segment throws inside the gateway.
    const answer = await fetch(`${fault.stack.apiUrl}/auth/v1/admin/users/%E0%A4%A`, {
      method: 'DELETE',
      headers: { apikey: fault.stack.serviceRoleKey, Authorization: `Bearer ${fault.stack.serviceRoleKey}` },
    });
    const body = await answer.text();
    expect(answer.status).toBe(500);
    expect(body).not.toMatch(/URI|malformed|Error|at /);
    // GoTrue's body for a caller that names no API version: the status as `code`, the name as `error_code`.
    expect(JSON.parse(body)).toMatchObject({ code: 500, error_code: 'unexpected_failure' });
  });

  it('refuses a REST filter nested 1,000 deep with 400 at once, while others are served', async () => {
    let nested = 'amount.eq.1';
    for (let level = 0; level < 1_000; level++) nested = `${level % 2 ? 'and' : 'or'}(${nested})`;
    const deep = await call(fault.stack, `/rest/v1/buy_requests?select=id&or=(${nested})`, {
      headers: restHeaders(fault.stack, fault.person()),
    });
    expect([deep.status, deep.code]).toEqual([400, 'PGRST100']);
    // A parser working per level would take far longer; a loaded machine's delay takes less.
    expect(deep.elapsedMs).toBeLessThan(5_000);
    const ordinary = await call(
      fault.stack,
      '/rest/v1/buy_requests?select=id&or=(amount.eq.1,and(amount.gt.5,amount.lt.9))',
      {
        headers: restHeaders(fault.stack, fault.person(1)),
      },
    );
    expect(ordinary.status).toBe(200);
    await bystanderStillReceives();
  });
});
