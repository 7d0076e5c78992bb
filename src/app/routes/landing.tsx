import { lazy, Suspense } from 'react';
import { Hero } from '@/features/landing/components/hero';
import { MarketSection } from '@/features/market/components/market-section';
import { hasStoredSession } from '@/lib/stored-session';

const MarketWithWatchlist = lazy(() => import('./landing-market-watchlist'));

export default function LandingRoute() {
  const signedIn = hasStoredSession();
  return (
    <>
      <Hero signedIn={signedIn} />
      {signedIn ? (
        <Suspense fallback={<MarketSection />}>
          <MarketWithWatchlist />
        </Suspense>
      ) : (
        <MarketSection />
      )}
    </>
  );
}
