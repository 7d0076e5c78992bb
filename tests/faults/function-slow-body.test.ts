import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { call, restHeaders, faultStackForFile } from '../support/fault-stack';

// Long enough that a loaded machine serves another call within it.
const bodyTimeoutMs = 5_000;
const fault = faultStackForFile({ gateway: { functionBodyTimeoutMs: bodyTimeoutMs }, people: 2 });

/** A withdrawal call whose body is announced but never finishes: its status once the gateway answers. */
function neverEndingBody(): Promise<{ status: number; elapsedMs: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const url = new URL(`${fault.stack.apiUrl}/functions/v1/withdrawals`);
    const slow = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          ...restHeaders(fault.stack, fault.person()),
          'Content-Length': '1000',
          'Idempotency-Key': randomUUID(),
        },
      },
      (answer) => {
        answer.resume();
        resolve({ status: answer.statusCode ?? 0, elapsedMs: performance.now() - started });
      },
    );
    slow.on('error', () => resolve({ status: 0, elapsedMs: performance.now() - started }));
    slow.write('{"amount": ');
  });
}

const invalidWithdrawal = () =>
  call(fault.stack, '/functions/v1/withdrawals', {
    method: 'POST',
    headers: { ...restHeaders(fault.stack, fault.person(1)), 'Idempotency-Key': randomUUID() },
    body: JSON.stringify({}),
  });

describe('a function call whose body never finishes arriving', () => {
  it('is cut off with 408 after the body timeout, while the same function keeps serving everyone else', async () => {
    expect((await invalidWithdrawal()).status).toBe(400);

    const slow = neverEndingBody();
    let slowAnswered = false;
    void slow.then(() => (slowAnswered = true));
    const meanwhile = await invalidWithdrawal();
    expect(meanwhile.status).toBe(400);
    // Served while the slow call still waited: the witness, rather than a clock.
    expect(slowAnswered).toBe(false);

    const cutOff = await slow;
    expect(cutOff.status).toBe(408);
    // At the timeout, not left hanging: a loaded machine's delay is far below another timeout's length.
    expect(cutOff.elapsedMs).toBeGreaterThan(bodyTimeoutMs - 100);
    expect(cutOff.elapsedMs).toBeLessThan(2 * bodyTimeoutMs);
    const after = await invalidWithdrawal();
    expect([after.status, after.message]).toEqual([400, meanwhile.message]);
  });
});
