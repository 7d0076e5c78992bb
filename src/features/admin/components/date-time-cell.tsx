import { TableCell } from '@/components/ui/table';

/** A timestamp as the date with the time under it, in the viewer's locale (narrower than one line). */
export function DateTimeCell({ value }: { value: string }) {
  const date = new Date(value);
  return (
    <TableCell className="tabular-nums">
      {date.toLocaleDateString()}
      <span className="text-muted-foreground block text-xs">{date.toLocaleTimeString()}</span>
    </TableCell>
  );
}
