import { Link } from 'react-router-dom';
import { usePendingCounts, pendingCountsQueryKey } from '../api/get-pending-counts';
import { useAdminQueueRealtime } from '../hooks/use-admin-queue-realtime';

const queues = [
  { to: '/admin/buy-requests', label: 'Buy requests', count: 'buyRequests' },
  { to: '/admin/withdraw-requests', label: 'Withdraw requests', count: 'withdrawRequests' },
] as const;

/**
 * The admin area's queue navigation: how many buy and withdraw requests wait for a decision, kept live by
 * Realtime (a new request, or any admin's decision, counts again), each a link to its queue.
 */
export function PendingQueues() {
  const counts = usePendingCounts();
  useAdminQueueRealtime('buy_requests', pendingCountsQueryKey);
  useAdminQueueRealtime('withdraw_requests', pendingCountsQueryKey);
  if (!counts.data) return null;
  return (
    <nav aria-label="Pending requests" className="mx-auto w-full max-w-6xl border-b px-4 pb-3 sm:px-6">
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {queues.map(({ to, label, count }) => (
          <li key={to}>
            <Link
              to={to}
              className="hover:text-foreground focus-visible:ring-ring text-muted-foreground inline-flex items-center gap-2 rounded-sm focus-visible:ring-2 focus-visible:outline-none"
            >
              {label}
              <span
                data-testid={`pending-${count}`}
                className="bg-primary text-primary-foreground rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums"
              >
                {counts.data[count].toLocaleString()} pending
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
