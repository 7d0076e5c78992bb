import { describe, expect, it } from 'vitest';
import { poolAcquireTimeoutMs } from '../../devstack/src/gateway/database';
import {
  call,
  restHeaders,
  faultStackForFile,
  lockProfileRow,
  profileCalls,
  untilAnswered,
  untilWaitingOnLocks,
} from '../support/fault-stack';

const restLimit = 6;
const fault = faultStackForFile({ gateway: { admissionLimits: { rest: restLimit } } });

describe('a burst of REST requests past the admission limit', () => {
  it('answers the excess 503 with Retry-After at once, still answers CORS preflights, keeps Auth answering, and serves again after', async () => {
    const profile = profileCalls(fault.stack, fault.person());
    // Requests that stay admitted: writes waiting on a row lock fill the REST service's bound.
    const lock = await lockProfileRow(fault.stack, fault.person());
    const held = Array.from({ length: restLimit }, () => profile.rename('Burst'));
    await untilWaitingOnLocks(fault.stack, restLimit);

    const burst = await Promise.all(Array.from({ length: 40 }, profile.read));
    const preflight = await fetch(`${fault.stack.apiUrl}/rest/v1/rpc/set_tax_time_zone`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, apikey, content-type',
      },
    });
    const auth = await call(fault.stack, '/auth/v1/user', {
      headers: restHeaders(fault.stack, fault.person()),
    });
    await lock.release();
    await Promise.all(held);

    expect(burst.map((answer) => [answer.status, answer.retryAfter, answer.code])).toEqual(
      burst.map(() => [503, '1', 'PGRST003']),
    );
    // Refused on arrival, not after waiting for a pooled connection (whose timeout answers the same code).
    expect(Math.max(...burst.map((answer) => answer.elapsedMs))).toBeLessThan(poolAcquireTimeoutMs / 2);
    // A browser's preflight is still answered: the request it precedes gets its own answer, 503 or not.
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
    expect(auth.status).toBe(200);
    expect(await untilAnswered(profile.read, 200, 5_000)).toBeLessThan(5_000);
  });
});
