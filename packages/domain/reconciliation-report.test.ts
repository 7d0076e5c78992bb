import { describe, expect, it } from 'vitest';
import { reconciliationCsv, type ReconciliationReport } from './reconciliation-report.ts';

const report: ReconciliationReport = {
  generated_at: '2026-11-30T00:00:00.000000Z',
  head: { seq: 42, hash: 'ab'.repeat(32) },
  checkpoint: { id: 3, head_seq: 40, root: 'cd'.repeat(32) },
  entries_verified: 42,
  verified_from: 0,
  trusted_checkpoint: null,
  awaiting_seal: 5,
  scope: 'Entries 1 to 42 verified from genesis.',
  differences: [],
};

describe('reconciliationCsv', () => {
  it('carries the entries awaiting seal beside the head and the checkpoint, as the JSON does', () => {
    const [header, row, ...rest] = reconciliationCsv(report).trim().split('\n');
    expect(header).toBe(
      'head_seq,head_hash,checkpoint_id,checkpoint_root,awaiting_seal,check,entry,subject,expected,found',
    );
    expect(row).toBe(`42,${'ab'.repeat(32)},3,${'cd'.repeat(32)},5,,,,,`);
    expect(rest).toEqual([]);
  });

  it('repeats the queue on every difference row, quoting fields with commas', () => {
    const rows = reconciliationCsv({
      ...report,
      checkpoint: null,
      awaiting_seal: 0,
      differences: [
        { check: 'balance differs', entry: 7, subject: 'person p USD', expected: '10.00', found: '9.00' },
        {
          check: 'request without entry',
          entry: null,
          subject: 'buy r, approved',
          expected: '1',
          found: '0',
        },
      ],
    })
      .trim()
      .split('\n')
      .slice(1);
    expect(rows).toEqual([
      `42,${'ab'.repeat(32)},,,0,balance differs,7,person p USD,10.00,9.00`,
      `42,${'ab'.repeat(32)},,,0,request without entry,,"buy r, approved",1,0`,
    ]);
  });
});
