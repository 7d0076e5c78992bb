import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../devstack/stack';
import {
  call,
  restHeaders,
  signUpOn,
  startFaultStack,
  startTraffic,
  unexpectedAnswers,
  untilAnswered,
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

describe('Postgres restarts under traffic', () => {
  it('keeps the gateway up, answers 503 with Retry-After while Postgres is away, and serves again after', async () => {
    const readOwnProfile = () =>
      call(stack, `/rest/v1/profiles?select=id&id=eq.${person.id}`, { headers: restHeaders(stack, person) });
    const renameSelf = () =>
      call(stack, `/rest/v1/profiles?id=eq.${person.id}`, {
        method: 'PATCH',
        headers: restHeaders(stack, person),
        body: JSON.stringify({ full_name: 'Still Here' }),
      });
    const readOwnUser = () => call(stack, '/auth/v1/user', { headers: restHeaders(stack, person) });
    await untilAnswered(readOwnProfile, 200);

    const traffic = startTraffic(6, (index) =>
      index % 3 === 0 ? readOwnProfile() : index % 3 === 1 ? renameSelf() : readOwnUser(),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await stack.postgres.restart();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answers = await traffic.stop();

    expect(unexpectedAnswers(answers)).toEqual([]);
    expect(answers.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);
    expect(await untilAnswered(readOwnProfile, 200, 5_000)).toBeLessThan(5_000);
    expect(await untilAnswered(renameSelf, 204, 5_000)).toBeLessThan(5_000);
    expect(await untilAnswered(readOwnUser, 200, 5_000)).toBeLessThan(5_000);
  });
});
