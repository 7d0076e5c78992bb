import type { ReactNode } from 'react';
import { AuthProvider } from '@/lib/auth';
import { MarketFeedsProvider } from '@/lib/market-feed';

/**
 * What every page may use. The server-data cache (TanStack Query) is not here: pages that need it
 * load it with their own code (see `serverDataPage` in the router), so the public pages stay light.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <MarketFeedsProvider>
      <AuthProvider>{children}</AuthProvider>
    </MarketFeedsProvider>
  );
}
