import { afterEach, describe, expect, it } from 'vitest';
import { changesStream, streamChanges } from '../../devstack/src/realtime/change-source';
import { startPostgresEndingConnections } from '../support/postgres-ending-connections';

let postgres: Awaited<ReturnType<typeof startPostgresEndingConnections>> | undefined;
afterEach(async () => {
  await postgres?.stop();
  postgres = undefined;
});

/**
 * Postgres may end a connection in the same breath as it answers (terminated, restarting): the answer
 * and the FATAL error reach the stack together, before the code awaiting the answer runs again. An
 * 'error' event with no listener then ends the process (Vitest fails the run on it, as CI did).
 */
describe('a replication connection ended as it answers', () => {
  it('fails the start of the stream when it dies with the connection’s first answer', async () => {
    postgres = await startPostgresEndingConnections({ answers: 0 });
    const ended: unknown[] = [];
    await expect(
      streamChanges(
        postgres.url,
        changesStream,
        () => Promise.resolve(),
        (error) => ended.push(error),
      ),
    ).rejects.toThrow(/not queryable|terminat/);
    expect(ended).toEqual([]);
  });

  it('ends the started stream, to be restarted, when it dies with the slot’s creation', async () => {
    postgres = await startPostgresEndingConnections({ answers: 1 });
    let onEnd: (error?: Error) => void = () => undefined;
    const ended = new Promise<Error | undefined>((resolve) => (onEnd = resolve));
    const stream = await streamChanges(postgres.url, changesStream, () => Promise.resolve(), onEnd);
    expect((await ended)?.message).toMatch(/terminat|not queryable/);
    await stream.close();
  });
});
