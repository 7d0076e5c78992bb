import type { QueryKey } from '@tanstack/react-query';
import { liveTopics, useRealtimeInvalidation } from '@/lib/realtime';

/** The tables of the queues that wait for an admin's decision. */
export type QueueTable = 'buy_requests' | 'sell_requests' | 'withdraw_requests';

/**
 * Keeps an admin queue live: any new request or another admin's decision refreshes every loaded page,
 * without a reload, and so does a first approval that waits for a second admin. Both come on the private
 * admin topic, which only admins at aal2 may join.
 */
export function useAdminQueueRealtime(table: QueueTable, queryKey: QueryKey) {
  useRealtimeInvalidation({
    topic: liveTopics.adminQueues,
    tables: [table, 'second_approvals'],
    queryKeys: [queryKey],
  });
}
