import { usePendingCounts, type PendingCounts } from '../api/get-pending-counts';

/**
 * How many requests of a queue wait for a decision, as a badge in the queue's menu entry: the number on
 * screen (the menu is narrow), "3 pending" to a screen reader; nothing until the count is known. Kept live
 * by `useLivePendingCounts` in the admin area's layout.
 */
export function PendingCountBadge({ queue }: { queue: keyof PendingCounts }) {
  const counts = usePendingCounts();
  if (!counts.data) return null;
  return (
    <span
      data-testid={`pending-${queue}`}
      // Its own background, so it reads the same on the highlighted entry of the current page.
      className="bg-background text-foreground ml-auto rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap tabular-nums"
    >
      {counts.data[queue].toLocaleString()}
      <span className="sr-only"> pending</span>
    </span>
  );
}
