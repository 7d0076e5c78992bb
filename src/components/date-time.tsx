import { formatDate, formatTime } from '@/lib/format';

/** A moment in a list: the date with the time and its zone under it (narrow enough for table columns). */
export function DateTime({ value }: { value: string }) {
  return (
    <time dateTime={value} className="grid tabular-nums">
      <span>{formatDate(value)}</span>
      <span className="text-muted-foreground text-xs">{formatTime(value)}</span>
    </time>
  );
}
