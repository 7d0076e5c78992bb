import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { call, restHeaders, faultStackForFile, untilAnswered } from '../support/fault-stack';

const restLimit = 6;
const fault = faultStackForFile({ gateway: { admissionLimits: { rest: restLimit } } });

describe('a burst of REST requests past the admission limit', () => {
  it('answers the excess 503 with Retry-After at once, keeps Auth answering, and serves again after', async () => {
    const renameSelf = () =>
      call(fault.stack, `/rest/v1/profiles?id=eq.${fault.person().id}`, {
        method: 'PATCH',
        headers: restHeaders(fault.stack, fault.person()),
        body: JSON.stringify({ full_name: 'Burst' }),
      });
    const readOwnProfile = () =>
      call(fault.stack, `/rest/v1/profiles?select=id&id=eq.${fault.person().id}`, {
        headers: restHeaders(fault.stack, fault.person()),
      });
    // Requests that stay admitted: writes waiting on a row lock fill the REST service's bound.
    const stalled = new pg.Client({ connectionString: fault.stack.databaseUrl });
    await stalled.connect();
    await stalled.query('begin');
    await stalled.query('select 1 from public.profiles where id = $1 for update', [fault.person().id]);
    const held = Array.from({ length: restLimit }, renameSelf);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const burst = await Promise.all(Array.from({ length: 40 }, readOwnProfile));
    const auth = await call(fault.stack, '/auth/v1/user', {
      headers: restHeaders(fault.stack, fault.person()),
    });
    await stalled.query('rollback');
    await stalled.end();
    await Promise.all(held);

    expect(burst.map((answer) => [answer.status, answer.retryAfter, answer.code])).toEqual(
      burst.map(() => [503, '1', 'PGRST003']),
    );
    expect(Math.max(...burst.map((answer) => answer.elapsedMs))).toBeLessThan(2_000);
    expect(auth.status).toBe(200);
    expect(await untilAnswered(readOwnProfile, 200, 5_000)).toBeLessThan(5_000);
  });
});
