import { describe, expect, it } from 'vitest';
import {
  connectAsOperator,
  asOperator,
  insertBuyRequest,
  listenToBuyRequests,
  faultStackForFile,
  waitUntil,
} from '../support/fault-stack';

const fault = faultStackForFile();

/**
 * While it is away, the visibility check is a stand-in that fails as a missing function does (42883) and
 * counts each attempt in a sequence, which a failed transaction does not roll back: the count is the
 * witness that Realtime has tried, and failed, to check the change that must not arrive yet.
 */
const checkAway = `
  create sequence realtime.failed_visibility_checks;
  grant usage on sequence realtime.failed_visibility_checks to public;
  alter function realtime.apply_rls_batch(jsonb, jsonb) rename to apply_rls_batch_away;
  create function realtime.apply_rls_batch(changes jsonb, checks jsonb)
  returns table (change_index integer, check_indexes integer[], record jsonb, old_record jsonb, columns jsonb)
  language plpgsql set search_path = '' as $$
  begin
    perform nextval('realtime.failed_visibility_checks');
    raise exception 'the visibility check is away' using errcode = '42883';
  end $$;`;
const checkBack = `
  drop function realtime.apply_rls_batch(jsonb, jsonb);
  alter function realtime.apply_rls_batch_away(jsonb, jsonb) rename to apply_rls_batch;`;

/** Waits until Realtime has tried the stand-in `attempts` times (polling the operator's view of the sequence). */
async function untilChecksFailed(attempts: number): Promise<void> {
  const operator = await connectAsOperator(fault.stack);
  try {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { rows } = await operator.query<{ failed: string }>(
        `select case when is_called then last_value else 0 end::text as failed
         from realtime.failed_visibility_checks`,
      );
      if (Number(rows[0]?.failed ?? 0) >= attempts) return;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${attempts} failed checks`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await operator.end();
  }
}

describe('the visibility check of a change fails', () => {
  it('is retried, and the change still arrives, on the same channel, with nothing before it lost', async () => {
    const listener = await listenToBuyRequests(fault.stack, fault.person());
    const before = await insertBuyRequest(fault.stack, fault.person());
    await waitUntil(() => listener.changes.includes(before), 'the change before the failure');

    await asOperator(fault.stack, checkAway);
    const during = await insertBuyRequest(fault.stack, fault.person());
    // Two failed attempts: the change was checked, failed, and was tried again, and it is still held.
    await untilChecksFailed(2);
    expect(listener.changes).not.toContain(during);
    await asOperator(fault.stack, checkBack);
    const after = await insertBuyRequest(fault.stack, fault.person());

    await waitUntil(() => listener.changes.includes(after), 'the change after the failure');
    expect(listener.changes).toEqual([before, during, after]);
    expect(listener.statuses).toEqual(['SUBSCRIBED']);
  });
});
