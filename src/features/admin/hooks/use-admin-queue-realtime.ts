import type { QueryKey } from '@tanstack/react-query';
import { useRealtimeInvalidation } from '@/lib/realtime';

/** The tables of the queues that wait for an admin's decision. */
export type QueueTable = 'buy_requests' | 'sell_requests' | 'withdraw_requests';

/**
 * Keeps an admin queue live: any new request or another admin's decision refreshes every loaded page,
 * without a reload. Row-level security lets an admin receive every row's changes.
 */
export function useAdminQueueRealtime(table: QueueTable, queryKey: QueryKey) {
  useRealtimeInvalidation({ table, queryKeys: [queryKey] });
}
