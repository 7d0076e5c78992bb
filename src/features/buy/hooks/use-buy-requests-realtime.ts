import { liveTopics, useRealtimeInvalidation } from '@/lib/realtime';
import { walletBalanceQueryKey } from '@/lib/wallet-balance';
import { buyRequestsQueryKey } from '../api/get-buy-requests';

/**
 * Live status for the person's buy requests: an admin's decision updates the list, and the buy
 * transaction an approval records updates the balance, without a reload.
 */
export function useBuyRequestsRealtime(userId: string | undefined) {
  const id = userId ?? '';
  const topic = liveTopics.wallet(id);
  const enabled = Boolean(userId);
  // A decision, an expiry's release or a cancellation elsewhere changes what the requests reserve.
  useRealtimeInvalidation({
    topic,
    tables: ['buy_requests'],
    queryKeys: [buyRequestsQueryKey(id), walletBalanceQueryKey(id)],
    enabled,
  });
  useRealtimeInvalidation({
    topic,
    tables: ['transactions'],
    queryKeys: [walletBalanceQueryKey(id)],
    enabled,
  });
}
