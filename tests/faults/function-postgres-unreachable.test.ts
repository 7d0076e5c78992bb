import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, faultStackForFile, restHeaders, untilAnswered, type Answer } from '../support/fault-stack';

const fault = faultStackForFile();

/** A withdrawal with an empty form: the function checks the caller with Auth, then refuses the form. */
const emptyWithdrawal = () =>
  call(fault.stack, '/functions/v1/withdrawals', {
    method: 'POST',
    headers: { ...restHeaders(fault.stack, fault.person()), 'Idempotency-Key': randomUUID() },
    body: JSON.stringify({}),
  });

describe('Postgres is unreachable while a function is called', () => {
  it('the function answers 503 with Retry-After itself (not 500, not "Sign in"), and normally once Postgres is back', async () => {
    const before = await emptyWithdrawal();
    expect(before.status).toBe(400);

    let during: Answer | undefined;
    await fault.stack.postgres.restart(async () => {
      during = await emptyWithdrawal();
    });
    expect(during).toMatchObject({ status: 503, retryAfter: '1' });

    expect(await untilAnswered(emptyWithdrawal, 400, 10_000)).toBeLessThan(10_000);
  });
});
