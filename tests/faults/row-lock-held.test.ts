import { describe, expect, it } from 'vitest';
import {
  call,
  hangMs,
  lockProfileRow,
  restHeaders,
  faultStackForFile,
  startTraffic,
  unexpectedAnswers,
  untilAnswered,
  type SignedUpPerson,
} from '../support/fault-stack';

const fault = faultStackForFile({ people: 2 });

const lockHeldMs = 30_000;

describe('a row stays locked for 30 s by a stalled transaction during REST traffic', () => {
  it('answers writes to that row 503 with Retry-After after the lock timeout, serves everyone else, and recovers', async () => {
    const rename = (person: SignedUpPerson) => () =>
      call(fault.stack, `/rest/v1/profiles?id=eq.${person.id}`, {
        method: 'PATCH',
        headers: restHeaders(fault.stack, person),
        body: JSON.stringify({ full_name: 'Renamed' }),
      });
    const readOwnProfile = () =>
      call(fault.stack, `/rest/v1/profiles?select=id&id=eq.${fault.person(1).id}`, {
        headers: restHeaders(fault.stack, fault.person(1)),
      });

    const lock = await lockProfileRow(fault.stack, fault.person());

    // Eight writers on the locked row (each holding a pooled connection until its lock timeout), four
    // readers and four writers elsewhere.
    const blockedWrites = startTraffic(8, rename(fault.person()));
    const otherCalls = startTraffic(8, (index) => (index % 2 ? readOwnProfile() : rename(fault.person(1))()));
    await new Promise((resolve) => setTimeout(resolve, lockHeldMs));
    await lock.release();
    const [blocked, others] = await Promise.all([blockedWrites.stop(), otherCalls.stop()]);

    expect(unexpectedAnswers([...blocked, ...others])).toEqual([]);
    const lockRefusals = blocked.filter((answer) => answer.status === 503);
    expect(lockRefusals.length).toBeGreaterThan(0);
    expect(lockRefusals.every((answer) => answer.code === '55P03')).toBe(true);
    expect(Math.max(...blocked.map((answer) => answer.elapsedMs))).toBeLessThan(hangMs);
    expect(others.filter((answer) => answer.status < 300).length).toBeGreaterThan(others.length / 2);
    expect(await untilAnswered(rename(fault.person()), 204, 5_000)).toBeLessThan(5_000);
  });
});
