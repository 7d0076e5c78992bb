import { describe, expect, it } from 'vitest';
import { insertBuyRequest, listenToBuyRequests, faultStackForFile, waitUntil } from '../support/fault-stack';

const fault = faultStackForFile();

describe('Postgres restarts while a subscriber listens', () => {
  it('reports the gap on the channel (CHANNEL_ERROR), which rejoins by itself and delivers again', async () => {
    const listener = await listenToBuyRequests(fault.stack, fault.person());
    expect(listener.statuses).toEqual(['SUBSCRIBED']);

    await fault.stack.postgres.restart();

    // realtime-js reports the error, rejoins, and says SUBSCRIBED again: the moment an app re-reads.
    await waitUntil(() => listener.statuses.includes('CHANNEL_ERROR'), 'the gap to be reported');
    await waitUntil(() => listener.statuses.at(-1) === 'SUBSCRIBED', 'the channel to join again', 30_000);
    const after = await insertBuyRequest(fault.stack, fault.person());
    await waitUntil(() => listener.changes.includes(after), 'a change after the restart');
    expect(listener.statuses.filter((status) => status === 'CHANNEL_ERROR').length).toBeGreaterThan(0);
  });
});
