import { TableCell } from '@/components/ui/table';
import { csvUtcTime } from '@/lib/csv';
import { auditLog, type AuditEntry } from '../api/get-audit-log';
import { auditDetailLines } from './audit-details';
import { DateTimeCell } from './date-time-cell';
import type { LedgerKind } from './ledger-page';
import { PersonCell } from './person-cell';

/** /admin/audit-log: who did what to which record, when. Read-only: the database alone writes it. */
export const auditLedger: LedgerKind<AuditEntry> = {
  label: 'Audit log',
  rowTestId: 'audit-log-row',
  emptyMessage: 'Nothing recorded yet.',
  list: auditLog,
  csv: {
    name: 'audit-log',
    // Who is blank for the database operator and for a person deleted since (their id stays).
    columns: [
      { header: 'Date (UTC)', value: (entry) => csvUtcTime(entry.at) },
      { header: 'Name', value: (entry) => entry.actorName },
      { header: 'E-mail', value: (entry) => entry.actorEmail },
      { header: 'Actor ID', value: (entry) => entry.actorId },
      { header: 'Action', value: (entry) => entry.action },
      { header: 'Table', value: (entry) => entry.targetTable },
      { header: 'Record ID', value: (entry) => entry.targetId },
      { header: 'Details (JSON)', value: (entry) => JSON.stringify(entry.details) },
    ],
  },
  useView: () => ({
    columns: [
      { header: 'When', cell: (entry) => <DateTimeCell value={entry.at} /> },
      {
        header: 'Who',
        cell: (entry) =>
          entry.actorEmail ? (
            <PersonCell name={entry.actorName ?? ''} email={entry.actorEmail} />
          ) : (
            <TableCell>{entry.actorId ? 'Deleted user' : 'System'}</TableCell>
          ),
      },
      {
        header: 'What',
        // Wrapped, not scrolled: the table fits the page instead of hiding columns off-screen.
        cell: (entry) => (
          <TableCell wrap>
            <span className="block font-mono text-xs">{entry.action}</span>
            <span className="text-muted-foreground block max-w-56 font-mono text-xs break-all">
              {entry.targetTable}
              {entry.targetId && ` ${entry.targetId}`}
            </span>
          </TableCell>
        ),
      },
      {
        header: 'Details',
        cell: (entry) => (
          <TableCell wrap>
            <dl className="grid max-w-64 gap-0.5 text-xs wrap-anywhere">
              {auditDetailLines(entry.details).map(({ name, value }) => (
                <div key={name}>
                  <dt className="text-muted-foreground inline">{name}: </dt>
                  <dd className="inline">{value}</dd>
                </div>
              ))}
            </dl>
          </TableCell>
        ),
      },
    ],
  }),
};
