import { describe, expect, it } from 'vitest';
import {
  asOperator,
  insertBuyRequest,
  listenToBuyRequests,
  faultStackForFile,
  waitUntil,
} from '../support/fault-stack';

const fault = faultStackForFile();

const checkFunction = 'realtime.apply_rls_batch(jsonb, jsonb)';

describe('the visibility check of a change fails', () => {
  it('is retried, and the change still arrives, on the same channel, with nothing before it lost', async () => {
    const listener = await listenToBuyRequests(fault.stack, fault.person());
    const before = await insertBuyRequest(fault.stack, fault.person());
    await waitUntil(() => listener.changes.includes(before), 'the change before the failure');

    // Every check fails while the function is away (42883), then succeeds again.
    await asOperator(fault.stack, `alter function ${checkFunction} rename to apply_rls_batch_away`);
    const during = await insertBuyRequest(fault.stack, fault.person());
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(listener.changes).not.toContain(during);
    await asOperator(
      fault.stack,
      `alter function realtime.apply_rls_batch_away(jsonb, jsonb) rename to apply_rls_batch`,
    );
    const after = await insertBuyRequest(fault.stack, fault.person());

    await waitUntil(() => listener.changes.includes(after), 'the change after the failure');
    expect(listener.changes).toEqual([before, during, after]);
    expect(listener.statuses).toEqual(['SUBSCRIBED']);
  });
});
