import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../devstack/stack';
import {
  insertBuyRequest,
  listenToBuyRequests,
  signUpOn,
  startFaultStack,
  waitUntil,
  type SignedUpPerson,
} from '../support/fault-stack';

let stack: RunningStack;
let person: SignedUpPerson;

beforeAll(async () => {
  stack = await startFaultStack();
  person = await signUpOn(stack);
});

afterAll(async () => {
  await stack?.stop();
});

describe('Postgres restarts while a subscriber listens', () => {
  it('reports the gap on the channel (CHANNEL_ERROR), which rejoins by itself and delivers again', async () => {
    const listener = await listenToBuyRequests(stack, person);
    expect(listener.statuses).toEqual(['SUBSCRIBED']);

    await stack.postgres.restart();

    // realtime-js reports the error, rejoins, and says SUBSCRIBED again: the moment an app re-reads.
    await waitUntil(() => listener.statuses.includes('CHANNEL_ERROR'), 'the gap to be reported');
    await waitUntil(() => listener.statuses.at(-1) === 'SUBSCRIBED', 'the channel to join again', 30_000);
    const after = await insertBuyRequest(stack, person);
    await waitUntil(() => listener.changes.includes(after), 'a change after the restart');
    expect(listener.statuses.filter((status) => status === 'CHANNEL_ERROR').length).toBeGreaterThan(0);
  });
});
