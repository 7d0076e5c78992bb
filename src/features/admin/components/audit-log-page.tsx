import { useState } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useAuditLog } from '../api/get-audit-log';
import { Pager } from './pager';
import { LoadingRows, MessageRow } from './table-states';

const COLUMNS = 5;

/** /admin/audit-log: who did what to which record, when. Read-only: the database alone writes it. */
export function AuditLogPage() {
  const [page, setPage] = useState(0);
  const entries = useAuditLog(page);

  return (
    <Card>
      <CardContent className="grid gap-4 pt-6">
        <Table aria-busy={entries.isFetching}>
          <TableHeader>
            <TableRow>
              <TableHead>When</TableHead>
              <TableHead>Who</TableHead>
              <TableHead>Action</TableHead>
              <TableHead>Record</TableHead>
              <TableHead>Details</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {entries.isPending ? (
              <LoadingRows columns={COLUMNS} />
            ) : entries.isError ? (
              <MessageRow columns={COLUMNS} message={entries.error.message} isError />
            ) : entries.data.rows.length === 0 ? (
              <MessageRow columns={COLUMNS} message="Nothing recorded yet." />
            ) : (
              entries.data.rows.map((entry) => (
                <TableRow key={entry.id} data-testid="audit-log-row">
                  <TableCell>{new Date(entry.at).toLocaleString()}</TableCell>
                  <TableCell>
                    {entry.actorEmail ? (
                      <>
                        <span className="font-medium">{entry.actorName || entry.actorEmail}</span>
                        <span className="text-muted-foreground block text-xs">{entry.actorEmail}</span>
                      </>
                    ) : entry.actorId ? (
                      'Deleted user'
                    ) : (
                      'System'
                    )}
                  </TableCell>
                  <TableCell className="font-mono text-xs">{entry.action}</TableCell>
                  <TableCell className="whitespace-normal">
                    {entry.targetTable}
                    {entry.targetId && (
                      <span className="text-muted-foreground block max-w-40 font-mono text-xs break-all">
                        {entry.targetId}
                      </span>
                    )}
                  </TableCell>
                  <TableCell className="whitespace-normal">
                    {/* Wrapped, not scrolled: the table fits the page instead of hiding columns off-screen. */}
                    <code className="block max-w-72 text-xs break-all">{JSON.stringify(entry.details)}</code>
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
        {entries.data && (
          <Pager label="Audit log" page={page} total={entries.data.total} onPageChange={setPage} />
        )}
      </CardContent>
    </Card>
  );
}
