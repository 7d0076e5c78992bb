import { Card, CardContent } from '@/components/ui/card';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { auditLogList, auditLogQueries, type AuditEntry } from '../api/get-audit-log';
import { NO_MATCHES_MESSAGE } from '../api/admin-messages';
import { isNarrowed } from '../api/list-state';
import { useListUrlState } from '../hooks/use-list-url-state';
import { csvUtcTime, type CsvColumn } from '@/lib/csv';
import { DateTimeCell } from './date-time-cell';
import { ListPager } from './list-pager';
import { ListTable } from './list-table';
import { ListToolbar } from './list-toolbar';
import { PersonCell } from './person-cell';
import { QueryRows } from '@/components/query-state';

const COLUMNS = 4;

/** Who is blank for the database operator and for a person deleted since (their id stays). */
const csvColumns: CsvColumn<AuditEntry>[] = [
  { header: 'Date (UTC)', value: (entry) => csvUtcTime(entry.at) },
  { header: 'Name', value: (entry) => entry.actorName },
  { header: 'E-mail', value: (entry) => entry.actorEmail },
  { header: 'Actor ID', value: (entry) => entry.actorId },
  { header: 'Action', value: (entry) => entry.action },
  { header: 'Table', value: (entry) => entry.targetTable },
  { header: 'Record ID', value: (entry) => entry.targetId },
  { header: 'Details (JSON)', value: (entry) => JSON.stringify(entry.details) },
];

/** /admin/audit-log: who did what to which record, when. Read-only: the database alone writes it. */
export function AuditLogPage() {
  const list = useListUrlState(auditLogList);
  const entries = auditLogQueries.useList(list.state);

  return (
    <Card>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-6">
        <ListToolbar
          list={list}
          csv={{ list: 'audit-log', columns: csvColumns, readAll: () => auditLogQueries.getAll(list.state) }}
        />
        <ListTable label="Audit log" busy={entries.isFetching}>
          <TableHeader>
            <TableRow>
              <TableHead>When</TableHead>
              <TableHead>Who</TableHead>
              <TableHead>What</TableHead>
              <TableHead>Details</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            <QueryRows
              columns={COLUMNS}
              queries={[entries]}
              rows={entries.data?.rows}
              emptyMessage={isNarrowed(list.state) ? NO_MATCHES_MESSAGE : 'Nothing recorded yet.'}
            >
              {(entry) => (
                <TableRow key={entry.id} data-testid="audit-log-row">
                  <DateTimeCell value={entry.at} />
                  {entry.actorEmail ? (
                    <PersonCell name={entry.actorName ?? ''} email={entry.actorEmail} />
                  ) : (
                    <TableCell>{entry.actorId ? 'Deleted user' : 'System'}</TableCell>
                  )}
                  {/* Wrapped, not scrolled: the table fits the page instead of hiding columns off-screen. */}
                  <TableCell wrap>
                    <span className="block font-mono text-xs">{entry.action}</span>
                    <span className="text-muted-foreground block max-w-56 font-mono text-xs break-all">
                      {entry.targetTable}
                      {entry.targetId && ` ${entry.targetId}`}
                    </span>
                  </TableCell>
                  <TableCell wrap>
                    <code className="block max-w-64 text-xs break-all">{JSON.stringify(entry.details)}</code>
                  </TableCell>
                </TableRow>
              )}
            </QueryRows>
          </TableBody>
        </ListTable>
        <ListPager label="Audit log" data={entries.data} list={list} />
      </CardContent>
    </Card>
  );
}
