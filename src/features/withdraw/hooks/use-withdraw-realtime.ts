import { useRealtimeInvalidation } from '@/lib/realtime';
import { walletBalanceQueryKey } from '@/lib/wallet-balance';
import { recentWithdrawRequestsQueryKey } from '../api/get-recent-withdraw-requests';

/**
 * Keeps the withdraw page live: an admin deciding a request changes the list and the available balance;
 * a completed deposit or any other ledger entry changes the balance.
 */
export function useWithdrawRealtime(userId: string) {
  const filter = `user_id=eq.${userId}`;
  useRealtimeInvalidation({
    table: 'withdraw_requests',
    filter,
    queryKeys: [recentWithdrawRequestsQueryKey(userId), walletBalanceQueryKey(userId)],
  });
  useRealtimeInvalidation({ table: 'transactions', filter, queryKeys: [walletBalanceQueryKey(userId)] });
}
