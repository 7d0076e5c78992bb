import { describe, expect, it } from 'vitest';
import {
  connectAsOperator,
  call,
  restHeaders,
  faultStackForFile,
  startTraffic,
  unexpectedAnswers,
  untilAnswered,
} from '../support/fault-stack';

const fault = faultStackForFile();

async function terminateGatewayConnections() {
  const operator = await connectAsOperator(fault.stack);
  try {
    const { rows } = await operator.query<{ terminated: boolean }>(
      `select pg_terminate_backend(pid) as terminated from pg_stat_activity
       where pid <> pg_backend_pid() and usename in ('authenticator', 'postgres')`,
    );
    return rows.filter((row) => row.terminated).length;
  } finally {
    await operator.end();
  }
}

describe('every gateway connection is terminated under traffic (pg_terminate_backend)', () => {
  it('keeps the gateway up, answers 503 with Retry-After meanwhile, and serves again without a restart', async () => {
    const readOwnProfile = () =>
      call(fault.stack, `/rest/v1/profiles?select=id&id=eq.${fault.person().id}`, {
        headers: restHeaders(fault.stack, fault.person()),
      });
    const readOwnUser = () =>
      call(fault.stack, '/auth/v1/user', { headers: restHeaders(fault.stack, fault.person()) });
    await untilAnswered(readOwnProfile, 200);

    const traffic = startTraffic(6, (index) => (index % 3 === 2 ? readOwnUser() : readOwnProfile()));
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (let round = 0; round < 3; round++) {
      expect(await terminateGatewayConnections()).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const answers = await traffic.stop();

    expect(answers.length).toBeGreaterThan(10);
    expect(unexpectedAnswers(answers)).toEqual([]);
    const refused = answers.filter((answer) => answer.status === 503);
    for (const answer of refused) expect(['PGRST000', 'PGRST001', 'request_timeout']).toContain(answer.code);
    expect(await untilAnswered(readOwnProfile, 200, 5_000)).toBeLessThan(5_000);
    expect(await untilAnswered(readOwnUser, 200, 5_000)).toBeLessThan(5_000);
  });
});
