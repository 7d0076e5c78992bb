import { describe, expect, it } from 'vitest';
import { connectAsOperator, faultStackForFile } from '../support/fault-stack';

const fault = faultStackForFile();

/**
 * Sealing after commit: an entry committed with its change but not yet in the hash chain is never lost when
 * Postgres goes down between the commit and the seal, or in the middle of a seal: the seal is one transaction
 * that rolls back whole, the entry waits in the queue, and the next seal picks up where the last one stopped.
 */
describe('Postgres goes down between a commit and its seal', () => {
  it('keeps the committed entry queued, and the next seal chains it with clean books', async () => {
    const connect = () => connectAsOperator(fault.stack);
    const operator = await connect();
    const sealer = await connect();
    let headBefore = 0;
    let depositId = '';
    try {
      const { rows: heads } = await operator.query<{ seq: string }>('select seq from ledger.head');
      headBefore = Number(heads[0]?.seq);
      // The sealer holds the head, so the deposit's writer queues its entry and commits without waiting.
      await sealer.query('begin');
      await sealer.query('select from ledger.head for update');
      const { rows: deposits } = await operator.query<{ id: string }>(
        `insert into public.transactions (user_id, type, amount, status) values ($1, 'deposit', 125, 'complete')
         returning id`,
        [fault.person().id],
      );
      depositId = deposits[0]?.id ?? '';
      // The seal runs to the end of its work but never commits: Postgres goes down under it.
      const { rows: sealing } = await sealer.query<{ sealed: number }>('select ledger.seal() as sealed');
      expect(sealing[0]?.sealed).toBe(1);
      await fault.stack.postgres.restart();
    } finally {
      await Promise.allSettled([operator.end(), sealer.end()]);
    }

    const after = await connect();
    try {
      const { rows: queued } = await after.query<{ transaction_status: string }>(
        'select transaction_status from ledger.unsealed_entries',
      );
      expect(queued).toEqual([{ transaction_status: 'complete' }]);
      const { rows: sealed } = await after.query<{ sealed: number }>('select ledger.seal() as sealed');
      expect(sealed[0]?.sealed).toBe(1);
      const { rows: reports } = await after.query<{
        report: { awaiting_seal: number; differences: unknown[] };
      }>('select ledger.reconcile() as report');
      expect(reports[0]?.report).toMatchObject({ awaiting_seal: 0, differences: [] });
      const { rows: chained } = await after.query<{ seq: string; transaction_id: string }>(
        `select seq, transaction_id from ledger.entries where seq = (select seq from ledger.head)`,
      );
      expect(chained).toEqual([{ seq: String(headBefore + 1), transaction_id: depositId }]);
    } finally {
      await after.end();
    }
  });
});
