import { DateTime } from '@/components/date-time';
import { TableCell } from '@/components/ui/table';

/** A timestamp in a table: the app's one date format, the time and its zone under it. */
export function DateTimeCell({ value }: { value: string }) {
  return (
    <TableCell>
      <DateTime value={value} />
    </TableCell>
  );
}
