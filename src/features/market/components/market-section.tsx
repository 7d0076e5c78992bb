import { InfoIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { StalePricesNote } from '@/components/stale-prices-note';
import { TOP_COINS_COUNT, type MarketCoin } from '@/lib/market';
import { useMarketCoins } from '@/lib/market-feed';
import { MarketCards, MarketCardsSkeleton } from './market-cards';
import { MarketTable, MarketTableSkeleton } from './market-table';

/** A signed-in person's watchlist on the market data: starred coins first, a star beside each coin. */
export interface MarketWatchlist {
  starred: ReadonlySet<string>;
  star: (coin: MarketCoin) => ReactNode;
  /** A message about the watchlist (it failed to save), shown under the heading. */
  notice?: ReactNode;
}

/**
 * 'Live Cryptocurrency Market Data': the top 10 coins, a table on wide screens and cards on small
 * ones (both rendered, CSS picks one, so nothing shifts when the viewport is measured).
 */
export function MarketSection({ watchlist }: { watchlist?: MarketWatchlist }) {
  // The feed never fails (it falls back to the sample), so no data means still loading.
  const { data } = useMarketCoins(TOP_COINS_COUNT);
  // A stable sort: starred coins first, each group in market-cap order.
  const coins =
    data && watchlist
      ? [...data.coins].sort(
          (a, b) => Number(watchlist.starred.has(b.id)) - Number(watchlist.starred.has(a.id)),
        )
      : data?.coins;

  return (
    <section aria-labelledby="market-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <div className="mb-6 flex flex-col gap-1">
        <h2 id="market-heading" className="text-2xl font-semibold tracking-tight sm:text-3xl">
          Live Cryptocurrency Market Data
        </h2>
        <p role="status" className="text-muted-foreground h-5 text-sm">
          {!data ? 'Loading cryptocurrency data...' : 'Top 10 by market cap, in USD, refreshed every minute.'}
        </p>
        {watchlist?.notice}
      </div>

      {!data || !coins ? (
        <>
          <div className="bg-card hidden rounded-xl border md:block">
            <MarketTableSkeleton rows={TOP_COINS_COUNT} />
          </div>
          <div className="md:hidden">
            <MarketCardsSkeleton rows={TOP_COINS_COUNT} />
          </div>
        </>
      ) : (
        <>
          <div className="bg-card hidden rounded-xl border md:block">
            <MarketTable coins={coins} star={watchlist?.star} />
          </div>
          <div className="md:hidden">
            <MarketCards coins={coins} star={watchlist?.star} />
          </div>
          <StalePricesNote snapshot={data} />
          {data.source === 'simulator' && (
            <p className="text-muted-foreground mt-4 flex items-center gap-2 text-xs">
              <InfoIcon aria-hidden className="size-3.5 shrink-0" />
              Simulated prices: this environment uses a market simulator, not live exchange data.
            </p>
          )}
        </>
      )}
    </section>
  );
}
