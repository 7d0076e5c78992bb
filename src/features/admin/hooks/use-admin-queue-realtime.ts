import type { QueryKey } from '@tanstack/react-query';
import { liveTopics, useRealtimeInvalidation } from '@/lib/realtime';

/** The tables of the queues that wait for an admin's decision. */
export type QueueTable = 'buy_requests' | 'sell_requests' | 'withdraw_requests';

/**
 * Keeps an admin queue live: any new request or another admin's decision refreshes every loaded page,
 * without a reload, and so do a first approval that waits for a second admin and a person locked, put on
 * hold, frozen or released (which change what a row offers, not the row). All come on the private admin topic,
 * which only admins at aal2 may join. A burst of changes is read once more half a second after its first,
 * since a broadcast may arrive before its transaction is visible (src/lib/table-changes.ts).
 */
export function useAdminQueueRealtime(table: QueueTable, queryKey: QueryKey) {
  useRealtimeInvalidation({
    topic: liveTopics.adminQueues,
    tables: [table, 'second_approvals', 'withdrawal_locks', 'security_holds', 'account_freezes'],
    queryKeys: [queryKey],
    readAgainAfterMs: 500,
  });
}
