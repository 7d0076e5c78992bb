import { describe, expect, it } from 'vitest';
import { lagWindowMs, maxLoopLagMs } from '../../devstack/src/gateway/admission';
import { callerAt } from '../support/from-address';
import {
  restHeaders,
  faultStackForFile,
  lockProfileRow,
  profileCalls,
  untilAnswered,
  untilWaitingOnLocks,
} from '../support/fault-stack';

const fault = faultStackForFile();

const sliceMs = maxLoopLagMs * 1.5;

/**
 * Runs `work` once this process (and so the gateway in it) has been busy for longer than the gateway's
 * lag window, in slices longer than the lag it tolerates with one turn of the loop between them (I/O is
 * still served, late), as a gateway past its CPU would be; keeps it busy until `work` settles.
 */
async function whileLoopLate<T>(work: () => Promise<T>): Promise<T> {
  const slicesBeforeWork = Math.ceil(lagWindowMs / sliceMs) + 1;
  let result: Promise<T> | undefined;
  let settled = false;
  for (let slice = 0; !settled; slice++) {
    const sliceEnd = performance.now() + sliceMs;
    while (performance.now() < sliceEnd) {
      // Busy: nothing else in this process runs meanwhile.
    }
    if (slice === slicesBeforeWork) {
      result = work();
      result.then(
        () => (settled = true),
        () => (settled = true),
      );
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return result as Promise<T>;
}

describe('a gateway whose event loop stays late (its own CPU is the bottleneck)', () => {
  it('answers new requests 503 with Retry-After while it holds others, and normally once it catches up', async () => {
    const profile = profileCalls(fault.stack, fault.person());
    // One request held (a write waiting on a row lock): the gateway is busy, not merely slow to wake.
    const lock = await lockProfileRow(fault.stack, fault.person());
    const held = profile.rename('Held');
    await untilWaitingOnLocks(fault.stack, 1);

    const client = callerAt('127.0.0.1');
    const refused = await whileLoopLate(() =>
      client.get(
        `${fault.stack.apiUrl}/rest/v1/profiles?select=id&id=eq.${fault.person().id}`,
        restHeaders(fault.stack, fault.person()),
      ),
    );
    client.close();
    await lock.release();
    await held;

    expect([
      refused.status,
      refused.headers.get('retry-after'),
      (JSON.parse(refused.body) as { code: string }).code,
    ]).toEqual([503, '1', 'PGRST003']);
    // Refused without a body to drain, the client keeps its connection rather than connect again.
    expect(refused.headers.get('connection')).toBe('keep-alive');
    expect(await untilAnswered(profile.read, 200, 5_000)).toBeLessThan(5_000);
  });
});
