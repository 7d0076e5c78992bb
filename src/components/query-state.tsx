import type { ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { TableCell, TableRow } from '@/components/ui/table';
import { ADMIN_PAGE_SIZE } from '../api/paging';

/** Placeholder rows of a row's height while the first page loads, so the table does not jump. */
function LoadingRows({ columns }: { columns: number }) {
  return Array.from({ length: Math.min(ADMIN_PAGE_SIZE, 10) }, (_, index) => (
    <TableRow key={index} aria-hidden>
      <TableCell colSpan={columns}>
        <Skeleton className="h-6 w-full" />
      </TableCell>
    </TableRow>
  ));
}

/** One full-width row with a failure or an empty-list text. */
function MessageRow({ columns, message, isError }: { columns: number; message: string; isError?: boolean }) {
  return (
    <TableRow>
      <TableCell
        colSpan={columns}
        role={isError ? 'alert' : undefined}
        className={isError ? 'text-destructive text-center' : 'text-muted-foreground text-center'}
      >
        {/* With the cell's own padding, twice a data row's: the message row stands apart. */}
        <div className="py-3">{message}</div>
      </TableCell>
    </TableRow>
  );
}

/**
 * A table body's rows from its queries: the first query's error, placeholders while any query loads,
 * the empty-list text, or one row per item.
 */
export function QueryRows<Row>({
  columns,
  queries,
  rows,
  emptyMessage,
  children,
}: {
  columns: number;
  /** Every query the rows need: the list, and any other (the status types a row's select offers). */
  queries: readonly { error: Error | null; isPending: boolean }[];
  rows: readonly Row[] | undefined;
  emptyMessage: string;
  children: (row: Row) => ReactNode;
}) {
  const error = queries.find((query) => query.error)?.error;
  if (error) return <MessageRow columns={columns} message={error.message} isError />;
  if (rows === undefined || queries.some((query) => query.isPending))
    return <LoadingRows columns={columns} />;
  if (rows.length === 0) return <MessageRow columns={columns} message={emptyMessage} />;
  return rows.map(children);
}
