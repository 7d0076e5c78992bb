import { Skeleton } from '@/components/ui/skeleton';
import { TableCell, TableRow } from '@/components/ui/table';
import { ADMIN_PAGE_SIZE } from '../api/paging';

/** Placeholder rows of a row's height while the first page loads, so the table does not jump. */
export function LoadingRows({ columns }: { columns: number }) {
  return Array.from({ length: Math.min(ADMIN_PAGE_SIZE, 10) }, (_, index) => (
    <TableRow key={index} aria-hidden>
      <TableCell colSpan={columns}>
        <Skeleton className="h-6 w-full" />
      </TableCell>
    </TableRow>
  ));
}

/** One full-width row with a failure or an empty-list text. */
export function MessageRow({
  columns,
  message,
  isError,
}: {
  columns: number;
  message: string;
  isError?: boolean;
}) {
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
