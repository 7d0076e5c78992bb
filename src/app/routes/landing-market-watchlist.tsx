import { MarketSection } from '@/features/market/components/market-section';
import { useWatchlist } from '@/features/watchlist/api/get-watchlist';
import { useSetCoinStarred } from '@/features/watchlist/api/set-coin-starred';
import { WatchStar } from '@/features/watchlist/components/watch-star';
import { useAuth } from '@/lib/auth';
import { QueryScope } from '@/lib/query-scope';
import { ErrorMessage } from '@/components/error-message';
import { WATCHLIST_FAILED_MESSAGE } from '@/features/watchlist/api/watchlist-messages';

/** The landing page's market data with the signed-in person's watchlist (stars, starred coins first). */
function MarketWithWatchlist({ userId }: { userId: string }) {
  const watchlist = useWatchlist(userId);
  const setStarred = useSetCoinStarred(userId);
  const starred = watchlist.data ?? new Set<string>();
  return (
    <MarketSection
      watchlist={{
        starred,
        star: (coin) => (
          <WatchStar
            coinName={coin.name}
            starred={starred.has(coin.id)}
            onToggle={(star) => setStarred.mutate({ coinId: coin.id, starred: star })}
          />
        ),
        notice: setStarred.isError && <ErrorMessage>{WATCHLIST_FAILED_MESSAGE}</ErrorMessage>,
      }}
    />
  );
}

/**
 * Loaded by the landing page only when this browser keeps a session: the market section with stars for
 * a signed-in person, and as it is for anyone else (a session that turned out to be over).
 */
export default function LandingMarketWatchlist() {
  const { user, isLoading } = useAuth();
  if (isLoading || !user) return <MarketSection />;
  return (
    <QueryScope>
      <MarketWithWatchlist userId={user.id} />
    </QueryScope>
  );
}
