import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../devstack/stack';
import { call, restHeaders, signUpOn, startFaultStack, type SignedUpPerson } from '../support/fault-stack';

let stack: RunningStack;
let person: SignedUpPerson;

beforeAll(async () => {
  stack = await startFaultStack();
  person = await signUpOn(stack);
  // A slow endpoint, made for this throwaway database only.
  const operator = new pg.Client({ connectionString: stack.databaseUrl });
  await operator.connect();
  await operator.query(
    `create function public.wait_seconds(seconds float) returns void language sql as 'select pg_sleep(seconds)';
     grant execute on function public.wait_seconds(float) to anon, authenticated`,
  );
  await operator.end();
});

afterAll(async () => {
  await stack?.stop();
});

function waitSeconds(seconds: number, headers: Record<string, string>) {
  return call(stack, '/rest/v1/rpc/wait_seconds', {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ seconds }),
  });
}

describe("a statement that runs past its role's statement_timeout (anon 3 s, authenticated 8 s)", () => {
  it('is cancelled for a visitor after 3 s with Postgres\'s "statement timeout" error', async () => {
    const answer = await waitSeconds(5, { apikey: stack.anonKey });
    expect([answer.status, answer.code, answer.message]).toEqual([
      500,
      '57014',
      'canceling statement due to statement timeout',
    ]);
    expect(answer.elapsedMs).toBeGreaterThan(2_900);
    expect(answer.elapsedMs).toBeLessThan(4_900);
  });

  it('runs to its end for a signed-in person, whose limit is 8 s', async () => {
    const answer = await waitSeconds(4, restHeaders(stack, person));
    expect(answer.status).toBe(204);
  });
});
