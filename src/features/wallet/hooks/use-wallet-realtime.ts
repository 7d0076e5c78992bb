import { liveTopics, useRealtimeInvalidation } from '@/lib/realtime';
import { walletBalanceQueryKey } from '@/lib/wallet-balance';
import { walletHoldingsQueryKey } from '../api/get-holdings';
import { walletSellRequestsQueryKey } from '../api/get-sell-requests';
import { portfolioHistoryQueryKey } from '../api/get-portfolio-history';
import { walletTransactionsQueryKey } from '../api/get-transactions';

/**
 * Keeps the wallet live while an admin works: a ledger change refreshes the transactions, the holdings,
 * the portfolio's history and the balance, a withdraw request change refreshes the balance (open requests are held back from it),
 * a sell request change refreshes the sell requests and the holdings (pending sells are held back from what may be
 * sold). All come on the person's private wallet topic.
 */
export function useWalletRealtime(userId: string) {
  const topic = liveTopics.wallet(userId);
  useRealtimeInvalidation({
    topic,
    tables: ['transactions'],
    queryKeys: [
      walletTransactionsQueryKey(userId),
      walletHoldingsQueryKey(userId),
      portfolioHistoryQueryKey(userId),
      walletBalanceQueryKey(userId),
    ],
  });
  useRealtimeInvalidation({
    topic,
    tables: ['withdraw_requests'],
    queryKeys: [walletBalanceQueryKey(userId)],
  });
  useRealtimeInvalidation({
    topic,
    tables: ['sell_requests'],
    queryKeys: [walletSellRequestsQueryKey(userId), walletHoldingsQueryKey(userId)],
  });
}
