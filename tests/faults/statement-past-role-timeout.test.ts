import { beforeAll, describe, expect, it } from 'vitest';
import { connectAsOperator, call, restHeaders, faultStackForFile } from '../support/fault-stack';

const fault = faultStackForFile();

beforeAll(async () => {
  // A slow endpoint, made for this throwaway database only.
  const operator = await connectAsOperator(fault.stack);
  await operator.query(
    `create function public.wait_seconds(seconds float) returns void language sql as 'select pg_sleep(seconds)';
     grant execute on function public.wait_seconds(float) to anon, authenticated`,
  );
  await operator.end();
});

function waitSeconds(seconds: number, headers: Record<string, string>) {
  return call(fault.stack, '/rest/v1/rpc/wait_seconds', {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ seconds }),
  });
}

// The two calls only wait (in pg_sleep, each on its own connection as its own role), so they wait together.
describe.concurrent(
  "a statement that runs past its role's statement_timeout (anon 3 s, authenticated 8 s)",
  () => {
    it('is cancelled for a visitor after 3 s with Postgres\'s "statement timeout" error', async () => {
      const answer = await waitSeconds(5, { apikey: fault.stack.anonKey });
      expect([answer.status, answer.code, answer.message]).toEqual([
        500,
        '57014',
        'canceling statement due to statement timeout',
      ]);
      // Not before 3 s; and before the 5 s sleep ended, or it would have answered 204 (a loaded machine
      // may be late to answer, so no clock says so).
      expect(answer.elapsedMs).toBeGreaterThan(2_900);
    });

    it('runs to its end for a signed-in fault.person(), whose limit is 8 s', async () => {
      const answer = await waitSeconds(4, restHeaders(fault.stack, fault.person()));
      expect(answer.status).toBe(204);
    });
  },
);
