import { RestrictionsNotice } from '@/components/restrictions-notice';
import { memo, useMemo } from 'react';
import { LimitsNotice } from '@/components/limits-notice';
import { coinNamesOf, coinPricesOf } from '@domain/coins.ts';
import { useMarketCoins } from '@/lib/market-feed';
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
import { cn, panelsDrawnNearScreen } from '@/lib/utils';

const WALLET_LIMITS_SESSION_FLAG = 'hasSeenLimits';

/**
 * 'Your Wallet': every panel loads and fails on its own, so one failure leaves the rest usable. What lies
 * below the first screen renders once that has painted, when `belowFirstScreen` turns true. Each panel
 * reads the queries it shows itself: a dozen answers arrive in the first seconds, and each re-renders the
 * panel showing it, never the whole page (each such render is a task the browser cannot interrupt).
 */
export function WalletPage({ userId, belowFirstScreen }: { userId: string; belowFirstScreen: boolean }) {
  useWalletRealtime(userId);
  return (
    <div className={cn('mx-auto grid w-full max-w-6xl grid-cols-1 gap-6', panelsDrawnNearScreen)}>
      <FirstScreen userId={userId} />
      {belowFirstScreen && <BelowFirstScreen userId={userId} />}
    </div>
  );
}

/**
 * The first screen's panels, left alone by the render that adds what lies below: that render is
 * interruptible, but React redoes it in one piece when a query it read changed meanwhile, and the first
 * screen's answers arrive just then.
 */
const FirstScreen = memo(function FirstScreen({ userId }: { userId: string }) {
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Your Wallet</h1>
      <RestrictionsNotice userId={userId} movements={['buy', 'sell', 'withdraw']} />
      <WalletLimits />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <WalletBalanceCard userId={userId} />
        <WalletProfileCodeCard userId={userId} />
      </div>
      <WalletHoldings userId={userId} />
    </>
  );
});

/** The market's coins as the panels use them: the list, their names and their prices by id. */
function useMarketView() {
  const market = useMarketCoins();
  const coins = useMemo(() => market.data?.coins ?? [], [market.data]);
  const coinNames = useMemo(() => coinNamesOf(coins), [coins]);
  const prices = useMemo(() => coinPricesOf(coins), [coins]);
  return { market, coins, coinNames, prices };
}

/** The limits' notice (1.5 s after the page opens), or why they could not be read. */
function WalletLimits() {
  const limits = useTransactionLimits();
  return (
    <>
      {limits.isError && <ErrorMessage>{LIMITS_LOAD_FAILED_MESSAGE}</ErrorMessage>}
      <LimitsNotice limits={limits.data} sessionFlag={WALLET_LIMITS_SESSION_FLAG} />
    </>
  );
}

function WalletBalanceCard({ userId }: { userId: string }) {
  return <BalanceCard balance={useWalletBalance(userId)} />;
}

function WalletProfileCodeCard({ userId }: { userId: string }) {
  const profile = useWalletProfile(userId);
  return <WalletCodeCard walletCode={{ ...profile, data: profile.data?.walletCode }} />;
}

/** The portfolio, with Sell on each coin held, and the sell requests of someone who has coins or asked to sell. */
function WalletHoldings({ userId }: { userId: string }) {
  const holdings = useHoldings(userId);
  const sellRequests = useSellRequests(userId);
  const balance = useWalletBalance(userId);
  const { coins, coinNames, prices } = useMarketView();
  return (
    <>
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
    </>
  );
}

/** The panels below the first screen: history, converter, recent transactions and prices. */
function BelowFirstScreen({ userId }: { userId: string }) {
  const transactions = useWalletTransactions(userId);
  const { market, coins, coinNames } = useMarketView();
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
