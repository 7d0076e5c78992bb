import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { faultStackForFile } from '../support/fault-stack';

const fault = faultStackForFile();

/** Longer than Node's default keep-alive timeout (5 s), far shorter than nginx's (75 s). */
const idleMs = 6_000;

function getHealth(
  agent: Agent,
): Promise<{ status: number; keepAlive: string | string[] | undefined; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${fault.stack.apiUrl}/auth/v1/health`, { agent }, (answer) => {
      answer.resume();
      answer.on('end', () =>
        resolve({
          status: answer.statusCode ?? 0,
          keepAlive: answer.headers['keep-alive'],
          reused: outgoing.reusedSocket,
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('a client reuses a keep-alive connection after it was idle for seconds', () => {
  it('is answered on that connection: the gateway keeps idle connections as long as Kong’s nginx does', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await getHealth(agent);
    // The idle time is the fault itself: a connection the gateway closed as a request left on it is reset.
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const afterIdle = await getHealth(agent);
    agent.destroy();

    expect(first).toEqual({ status: 200, keepAlive: 'timeout=75', reused: false });
    expect(afterIdle).toEqual({ status: 200, keepAlive: 'timeout=75', reused: true });
  });
});
