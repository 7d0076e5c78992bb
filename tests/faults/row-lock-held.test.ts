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
  waitUntil,
  type SignedUpPerson,
} from '../support/fault-stack';

const fault = faultStackForFile({ people: 2 });

/** Writers on the locked row; each is refused this many times before the lock goes. */
const blockedWriters = 8;
const refusalsEach = 2;

describe('a row stays locked by a stalled transaction during REST traffic, past every lock timeout', () => {
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
    // readers and four writers elsewhere. The lock is held until every writer has been refused twice:
    // each has waited out the lock timeout, been answered, and waited it out again.
    const refusals = Array.from({ length: blockedWriters }, () => 0);
    const blockedWrites = startTraffic(blockedWriters, async (index) => {
      const answer = await rename(fault.person())();
      if (answer.status === 503) refusals[index] = (refusals[index] ?? 0) + 1;
      return answer;
    });
    const otherCalls = startTraffic(8, (index) => (index % 2 ? readOwnProfile() : rename(fault.person(1))()));
    const refusedEach = waitUntil(
      () => refusals.every((count) => count >= refusalsEach),
      `every writer on the locked row to be refused ${refusalsEach} times`,
      30_000,
    );
    // The lock goes and the traffic stops either way; a writer never refused fails the test after.
    await refusedEach.catch(() => undefined);
    await lock.release();
    const [blocked, others] = await Promise.all([blockedWrites.stop(), otherCalls.stop()]);
    await refusedEach;

    expect(unexpectedAnswers([...blocked, ...others])).toEqual([]);
    const lockRefusals = blocked.filter((answer) => answer.status === 503);
    expect(lockRefusals.length).toBeGreaterThan(0);
    expect(lockRefusals.every((answer) => answer.code === '55P03')).toBe(true);
    expect(Math.max(...blocked.map((answer) => answer.elapsedMs))).toBeLessThan(hangMs);
    expect(others.filter((answer) => answer.status < 300).length).toBeGreaterThan(others.length / 2);
    expect(await untilAnswered(rename(fault.person()), 204, 5_000)).toBeLessThan(5_000);
  });
});
