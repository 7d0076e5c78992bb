import { RestrictionsNotice } from '@/components/restrictions-notice';
import { memo, useDeferredValue, useMemo } from 'react';
import { LimitsNotice } from '@/components/limits-notice';
import { coinNamesOf, coinPricesOf } from '@domain/coins.ts';
import { useMarketCoins } from '@/lib/market-feed';
import type { MarketSnapshot } from '@/lib/market';
import { LIMITS_LOAD_FAILED_MESSAGE } from '@domain/limits.ts';
import { useTransactionLimits } from '@/lib/transaction-limits';
import { useWalletBalance } from '@/lib/wallet-balance';
import { useHoldings } from '../api/get-holdings';
import { useWalletProfile } from '../api/get-profile';
import { useSellRequests } from '../api/get-sell-requests';
import { useWalletTransactions } from '../api/get-transactions';
import { useWalletRealtime } from '../hooks/use-wallet-realtime';
import { BalanceCard } from './balance-card';
import { CryptoConverter } from './crypto-converter';
import { CryptoPrices } from './crypto-prices';
import { HistoryCard } from './history-card';
import { PortfolioCard } from './portfolio-card';
import { RecentTransactions } from './recent-transactions';
import { SellCoinDialog } from './sell-coin-dialog';
import { SellRequestsCard } from './sell-requests-card';
import { sellableCoin } from '../utils/sell-quantity';
import { WalletCodeCard } from './wallet-code-card';
import { ErrorMessage } from '@/components/error-message';

const WALLET_LIMITS_SESSION_FLAG = 'hasSeenLimits';

/**
 * 'Your Wallet': every panel loads and fails on its own, so one failure leaves the rest usable. What lies
 * below the first screen renders once that has painted, when `belowFirstScreen` turns true.
 */
export function WalletPage({ userId, belowFirstScreen }: { userId: string; belowFirstScreen: boolean }) {
  const queries = useWalletQueries(userId);
  useWalletRealtime(userId);
  // A query's answer re-renders its component at once, in one task (a store's update is never a
  // transition); a dozen answers arrive in the first seconds, each re-rendering the whole page. The panels
  // take them as a deferred value instead, which React renders in slices the browser can interrupt.
  const shown = useDeferredValue(queries);
  return <WalletPanels userId={userId} belowFirstScreen={belowFirstScreen} {...shown} />;
}

/** The page's queries, as the panels receive them. */
function useWalletQueries(userId: string) {
  return {
    balance: useWalletBalance(userId),
    profile: useWalletProfile(userId),
    transactions: useWalletTransactions(userId),
    holdings: useHoldings(userId),
    sellRequests: useSellRequests(userId),
    market: useMarketCoins(),
    limits: useTransactionLimits(),
  };
}

type WalletQueries = ReturnType<typeof useWalletQueries>;

const WalletPanels = memo(function WalletPanels({
  userId,
  belowFirstScreen,
  balance,
  profile,
  transactions,
  holdings,
  sellRequests,
  market,
  limits,
}: WalletQueries & { userId: string; belowFirstScreen: boolean }) {
  const coins = useMemo(() => market.data?.coins ?? [], [market.data]);
  const coinNames = useMemo(() => coinNamesOf(coins), [coins]);
  const prices = useMemo(() => coinPricesOf(coins), [coins]);

  return (
    <div className="mx-auto grid w-full max-w-6xl grid-cols-1 gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Your Wallet</h1>
      <RestrictionsNotice userId={userId} movements={['buy', 'sell', 'withdraw']} />
      {limits.isError && <ErrorMessage>{LIMITS_LOAD_FAILED_MESSAGE}</ErrorMessage>}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <BalanceCard balance={balance} />
        <WalletCodeCard walletCode={{ ...profile, data: profile.data?.walletCode }} />
      </div>
      <PortfolioCard
        holdings={holdings}
        coins={coins}
        balance={balance.data}
        rowAction={(position, coin) => <SellCoinDialog userId={userId} coin={sellableCoin(position, coin)} />}
      />
      {/* Only for someone who holds coins or has asked to sell: nothing to list for anyone else. */}
      {(Boolean(holdings.data?.length) || Boolean(sellRequests.data?.length)) && (
        <SellRequestsCard requests={sellRequests} coinNames={coinNames} prices={prices} userId={userId} />
      )}
      {belowFirstScreen && (
        <BelowFirstScreen
          userId={userId}
          coins={coins}
          coinNames={coinNames}
          transactions={transactions}
          market={market}
        />
      )}
      <LimitsNotice limits={limits.data} sessionFlag={WALLET_LIMITS_SESSION_FLAG} />
    </div>
  );
});

/** The panels below the first screen: history, converter, recent transactions and prices. */
function BelowFirstScreen({
  userId,
  coins,
  coinNames,
  transactions,
  market,
}: Pick<WalletQueries, 'transactions' | 'market'> & {
  userId: string;
  coins: MarketSnapshot['coins'];
  coinNames: ReturnType<typeof coinNamesOf>;
}) {
  return (
    <>
      <HistoryCard userId={userId} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
        <CryptoConverter coins={coins} className="lg:col-span-2" />
        <RecentTransactions
          className="lg:col-span-3"
          transactions={transactions.data}
          coinNames={coinNames}
          isLoading={transactions.isPending}
          isError={transactions.isError}
          older={{
            hasMore: transactions.hasNextPage,
            isLoading: transactions.isFetchingNextPage,
            onShowOlder: () => void transactions.fetchNextPage(),
          }}
        />
      </div>
      <CryptoPrices coins={coins} isLoading={!market.data} source={market.data?.source} />
    </>
  );
}
