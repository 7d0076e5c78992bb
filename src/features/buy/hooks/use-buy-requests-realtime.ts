import { useRealtimeInvalidation } from '@/lib/realtime';
import { walletBalanceQueryKey } from '@/lib/wallet-balance';
import { buyRequestsQueryKey } from '../api/get-buy-requests';

/**
 * Live status for the person's buy requests: an admin's decision updates the list, and the buy
 * transaction an approval records updates the balance, without a reload.
 */
export function useBuyRequestsRealtime(userId: string | undefined) {
  const id = userId ?? '';
  const filter = `user_id=eq.${id}`;
  useRealtimeInvalidation({
    table: 'buy_requests',
    filter,
    queryKeys: [buyRequestsQueryKey(id)],
    enabled: Boolean(userId),
  });
  useRealtimeInvalidation({
    table: 'transactions',
    filter,
    queryKeys: [walletBalanceQueryKey(id)],
    enabled: Boolean(userId),
  });
}
