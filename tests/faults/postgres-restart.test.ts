import { describe, expect, it } from 'vitest';
import {
  call,
  restHeaders,
  faultStackForFile,
  startTraffic,
  unexpectedAnswers,
  untilAnswered,
} from '../support/fault-stack';

const fault = faultStackForFile();

describe('Postgres restarts under traffic', () => {
  it('keeps the gateway up, answers 503 with Retry-After while Postgres is away, and serves again after', async () => {
    const readOwnProfile = () =>
      call(fault.stack, `/rest/v1/profiles?select=id&id=eq.${fault.person().id}`, {
        headers: restHeaders(fault.stack, fault.person()),
      });
    const renameSelf = () =>
      call(fault.stack, `/rest/v1/profiles?id=eq.${fault.person().id}`, {
        method: 'PATCH',
        headers: restHeaders(fault.stack, fault.person()),
        body: JSON.stringify({ full_name: 'Still Here' }),
      });
    const readOwnUser = () =>
      call(fault.stack, '/auth/v1/user', { headers: restHeaders(fault.stack, fault.person()) });
    await untilAnswered(readOwnProfile, 200);

    const traffic = startTraffic(6, (index) =>
      index % 3 === 0 ? readOwnProfile() : index % 3 === 1 ? renameSelf() : readOwnUser(),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await fault.stack.postgres.restart();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answers = await traffic.stop();

    expect(unexpectedAnswers(answers)).toEqual([]);
    expect(answers.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);
    expect(await untilAnswered(readOwnProfile, 200, 5_000)).toBeLessThan(5_000);
    expect(await untilAnswered(renameSelf, 204, 5_000)).toBeLessThan(5_000);
    expect(await untilAnswered(readOwnUser, 200, 5_000)).toBeLessThan(5_000);
  });
});
