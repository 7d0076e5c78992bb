import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../devstack/stack';
import {
  asOperator,
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

const checkFunction = 'realtime.apply_rls(regclass, text, jsonb, jsonb, jsonb, bigint)';

describe('the visibility check of a change fails', () => {
  it('is retried, and the change still arrives, on the same channel, with nothing before it lost', async () => {
    const listener = await listenToBuyRequests(stack, person);
    const before = await insertBuyRequest(stack, person);
    await waitUntil(() => listener.changes.includes(before), 'the change before the failure');

    // Every check fails while the function is away (42883), then succeeds again.
    await asOperator(stack, `alter function ${checkFunction} rename to apply_rls_away`);
    const during = await insertBuyRequest(stack, person);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(listener.changes).not.toContain(during);
    await asOperator(
      stack,
      `alter function realtime.apply_rls_away(regclass, text, jsonb, jsonb, jsonb, bigint) rename to apply_rls`,
    );
    const after = await insertBuyRequest(stack, person);

    await waitUntil(() => listener.changes.includes(after), 'the change after the failure');
    expect(listener.changes).toEqual([before, during, after]);
    expect(listener.statuses).toEqual(['SUBSCRIBED']);
  });
});
