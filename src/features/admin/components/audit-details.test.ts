import { describe, expect, it } from 'vitest';
import { auditDetailLines } from './audit-details';

describe('auditDetailLines', () => {
  it('shows the audit log details as named lines, not raw JSON', () => {
    expect(
      auditDetailLines({ old_status: 'pending', new_status: 'complete', amount: 10.5, reason: null }),
    ).toEqual([
      { name: 'Old status', value: 'pending' },
      { name: 'New status', value: 'complete' },
      { name: 'Amount', value: '10.5' },
      { name: 'Reason', value: '—' },
    ]);
  });

  it('keeps nested values readable as compact JSON and shows no lines for no details', () => {
    expect(auditDetailLines({ changes: { a: 1 } })).toEqual([{ name: 'Changes', value: '{"a":1}' }]);
    expect(auditDetailLines(null)).toEqual([]);
    expect(auditDetailLines('plain')).toEqual([{ name: 'Details', value: 'plain' }]);
  });
});
