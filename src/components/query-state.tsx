import type { ReactNode } from 'react';
import { ErrorMessage } from '@/components/error-message';
import { Skeleton } from '@/components/ui/skeleton';
import { TableCell, TableRow } from '@/components/ui/table';

/**
 * The app's one first-load mechanism (docs/architecture.md, "First load"): every panel reads its data with a
 * TanStack query and shows, from that query alone, a placeholder of its own shape while the first answer is
 * pending, the failure as an alert when it failed, or its content. Each panel loads and fails on its own, so
 * one failure leaves the rest of the page usable. Panels use `QueryState`, table bodies `QueryRows`.
 */

/** What a panel needs of a TanStack query (a `UseQueryResult` is one). */
export interface QueryView<Data> {
  data: Data | undefined;
  isPending: boolean;
  error: Error | null;
}

/**
 * A panel's content from its query: `placeholder` until the first answer, `errorMessage` (or the error's own
 * message) when it failed, else `children` with the data.
 */
export function QueryState<Data>({
  query,
  placeholder,
  errorMessage,
  children,
}: {
  query: QueryView<Data>;
  placeholder: ReactNode;
  errorMessage?: string;
  children: (data: Data) => ReactNode;
}) {
  if (query.error) return <ErrorMessage>{errorMessage ?? query.error.message}</ErrorMessage>;
  if (query.isPending || query.data === undefined) return placeholder;
  return children(query.data);
}

/** Placeholder table rows of a row's height, so the table does not jump when the data arrives. */
export function SkeletonRows({ rows, columns }: { rows: number; columns: number }) {
  return Array.from({ length: rows }, (_, index) => (
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
  placeholderRows = 10,
  children,
}: {
  columns: number;
  /** Every query the rows need: the list, and any other (the status types a row's select offers). */
  queries: readonly { error: Error | null; isPending: boolean }[];
  rows: readonly Row[] | undefined;
  emptyMessage: string;
  /** How many placeholder rows stand in for the first page. */
  placeholderRows?: number;
  children: (row: Row) => ReactNode;
}) {
  const error = queries.find((query) => query.error)?.error;
  if (error) return <MessageRow columns={columns} message={error.message} isError />;
  if (rows === undefined || queries.some((query) => query.isPending))
    return <SkeletonRows rows={placeholderRows} columns={columns} />;
  if (rows.length === 0) return <MessageRow columns={columns} message={emptyMessage} />;
  return rows.map(children);
}
