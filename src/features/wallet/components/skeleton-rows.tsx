import { Skeleton } from '@/components/ui/skeleton';
import { TableCell, TableRow } from '@/components/ui/table';

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
