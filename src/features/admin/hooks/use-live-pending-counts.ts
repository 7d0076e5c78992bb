import { pendingCountsQueryKey } from '../api/get-pending-counts';
import { useAdminQueueRealtime } from './use-admin-queue-realtime';

/**
 * Keeps the pending counts live while the admin area is open: a new request or any admin's decision in
 * any queue counts again. Each queue's channel is removed when the area unmounts.
 */
export function useLivePendingCounts() {
  useAdminQueueRealtime('buy_requests', pendingCountsQueryKey);
  useAdminQueueRealtime('withdraw_requests', pendingCountsQueryKey);
  useAdminQueueRealtime('sell_requests', pendingCountsQueryKey);
}
