import { ArrowDownIcon, ArrowUpIcon } from 'lucide-react';
import { formatPercent, isPriceRise } from '@/lib/format';
import { cn } from '@/lib/utils';

/** A 24h change: green with an up arrow from 0 up, red with a down arrow below 0. */
export function PriceChange({ value, className }: { value: number | null; className?: string }) {
  if (value === null) {
    return <span className={cn('text-muted-foreground', className)}>—</span>;
  }
  const rise = isPriceRise(value);
  const Arrow = rise ? ArrowUpIcon : ArrowDownIcon;
  return (
    <span
      className={cn(
        'inline-flex items-center justify-end gap-1 font-medium tabular-nums',
        rise ? 'text-success' : 'text-destructive',
        className,
      )}
    >
      <Arrow role="img" aria-label={rise ? 'up' : 'down'} className="size-3.5 shrink-0" strokeWidth={2.5} />
      {formatPercent(value)}
    </span>
  );
}
