import type { ReactNode } from 'react';
import { DateTime } from '@/components/date-time';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';

/**
 * A person's own requests (buy, sell, withdraw), newest first as given: the date, the kind's own columns
 * (`headings`), the status and an actions column; an empty list says `none` instead.
 */
export function RequestTable<Request>({
  requests,
  none,
  headings,
  children,
}: {
  requests: readonly Request[];
  none: string;
  headings: ReactNode;
  /** A request's row: a `RequestRow`. */
  children: (request: Request) => ReactNode;
}) {
  if (requests.length === 0) {
    return <p className="text-muted-foreground py-6 text-center">{none}</p>;
  }
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Date</TableHead>
          {headings}
          <TableHead>Status</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>{requests.map(children)}</TableBody>
    </Table>
  );
}

/** One request of a `RequestTable`: its date, the kind's own cells, its status and what the person may do. */
export function RequestRow({
  testId,
  date,
  status,
  action,
  children,
}: {
  testId: string;
  date: string;
  status: ReactNode;
  action: ReactNode;
  children: ReactNode;
}) {
  return (
    <TableRow data-testid={testId}>
      <TableCell>
        <DateTime value={date} />
      </TableCell>
      {children}
      <TableCell>{status}</TableCell>
      <TableCell className="text-right">{action}</TableCell>
    </TableRow>
  );
}
