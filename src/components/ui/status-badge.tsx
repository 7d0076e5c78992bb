import { cva } from 'class-variance-authority';
import type { ReactNode } from 'react';
import { formatStatus } from '@/lib/format';
import { cn } from '@/lib/utils';

const statusBadgeVariants = cva(
  'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium whitespace-nowrap',
  {
    variants: {
      tone: {
        green: 'border-emerald-600/20 bg-emerald-500/15 text-emerald-700 dark:text-emerald-300',
        red: 'border-red-600/20 bg-red-500/15 text-red-700 dark:text-red-300',
        yellow: 'border-amber-600/20 bg-amber-400/20 text-amber-800 dark:text-amber-200',
        blue: 'border-blue-600/20 bg-blue-500/15 text-blue-700 dark:text-blue-300',
        gray: 'border-zinc-500/20 bg-zinc-500/15 text-zinc-700 dark:text-zinc-300',
        purple: 'border-purple-600/20 bg-purple-500/15 text-purple-700 dark:text-purple-300',
      },
    },
  },
);

export type StatusTone = 'green' | 'red' | 'yellow' | 'blue' | 'gray' | 'purple';

/**
 * The specification colours statuses differently per list (section 4):
 * - `request`: admin badges — approved green, rejected red, pending yellow, processing blue, cancelled gray,
 *   anything else purple;
 * - `transaction`: the user's transaction list — complete(d) green, anything else yellow;
 * - `buy`: the user's buy and sell requests — approved green, rejected red, cancelled (by its owner) gray as the
 *   specification's cancelled badge, anything else yellow.
 */
export type StatusPalette = 'request' | 'transaction' | 'buy';

const requestTones: Record<string, StatusTone> = {
  approved: 'green',
  rejected: 'red',
  pending: 'yellow',
  processing: 'blue',
  cancelled: 'gray',
};

export function statusTone(status: string, palette: StatusPalette): StatusTone {
  const key = status.toLowerCase();
  switch (palette) {
    case 'request':
      return requestTones[key] ?? 'purple';
    case 'transaction':
      return key === 'complete' || key === 'completed' ? 'green' : 'yellow';
    case 'buy':
      return key === 'approved'
        ? 'green'
        : key === 'rejected'
          ? 'red'
          : key === 'cancelled'
            ? 'gray'
            : 'yellow';
  }
}

/** A badge of a given tone, for states that are not a request's or transaction's status. */
export function ToneBadge({ tone, children }: { tone: StatusTone; children: ReactNode }) {
  return (
    <span className={statusBadgeVariants({ tone })} data-tone={tone}>
      {children}
    </span>
  );
}

export function StatusBadge({
  status,
  palette,
  className,
}: {
  status: string;
  palette: StatusPalette;
  className?: string;
}) {
  const tone = statusTone(status, palette);
  return (
    <span className={cn(statusBadgeVariants({ tone }), className)} data-tone={tone}>
      {formatStatus(status)}
    </span>
  );
}
