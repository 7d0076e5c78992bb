import { liveTopics, useRealtimeInvalidation } from '@/lib/realtime';
import { walletBalanceQueryKey } from '@/lib/wallet-balance';
import { recentWithdrawRequestsQueryKey } from '../api/get-recent-withdraw-requests';

/**
 * Keeps the withdraw page live: an admin deciding a request changes the list and the available balance;
 * a completed deposit or any other ledger entry changes the balance. Both come on the person's wallet topic.
 */
export function useWithdrawRealtime(userId: string) {
  const topic = liveTopics.wallet(userId);
  useRealtimeInvalidation({
    topic,
    tables: ['withdraw_requests'],
    queryKeys: [recentWithdrawRequestsQueryKey(userId), walletBalanceQueryKey(userId)],
  });
  useRealtimeInvalidation({ topic, tables: ['transactions'], queryKeys: [walletBalanceQueryKey(userId)] });
}
