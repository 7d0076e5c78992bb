import { ArrowDownIcon, ArrowUpIcon } from 'lucide-react';
import { formatPercent, isPriceRise } from '@/lib/format';
import { cn } from '@/lib/utils';

/** A 24h change: green with an up arrow when zero or more, red with a down arrow when negative. */
export function PriceChange({ percent, className }: { percent: number | null; className?: string }) {
  if (percent === null) return <span className={cn('text-muted-foreground', className)}>–</span>;
  const rise = isPriceRise(percent);
  const Arrow = rise ? ArrowUpIcon : ArrowDownIcon;
  return (
    <span
      data-trend={rise ? 'up' : 'down'}
      className={cn(
        'inline-flex items-center justify-end gap-1 font-medium tabular-nums',
        rise ? 'text-success' : 'text-destructive',
        className,
      )}
    >
      <Arrow className="size-3.5" aria-label={rise ? 'Up' : 'Down'} />
      {formatPercent(percent)}
    </span>
  );
}
