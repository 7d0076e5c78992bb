import { notifyManager, QueryClient, timeoutManager, type Query } from '@tanstack/react-query';
import { coalescedTimeouts } from './coalesced-timeouts';

/**
 * Each component that shows a query re-renders for its change in a task of its own. React renders a query's
 * subscribers at once (useSyncExternalStore cannot wait), so answers arriving together re-rendered several
 * panels in one task the browser could not interrupt; apart, the browser can draw or answer a tap between
 * them.
 */
notifyManager.setNotifyFunction((notify) => setTimeout(notify, 0));
// Before any query exists: timers of one provider cannot be cleared by another.
timeoutManager.setTimeoutProvider(coalescedTimeouts());

/** How often a read that failed is tried again while its error shows, so the error clears once the API is back. */
export const FAILED_READ_RETRY_INTERVAL_MS = 10_000;

/** While a read's error shows, it is read again every few seconds (an API that was down comes back). */
export function refetchWhileFailed(query: Pick<Query, 'state'>): number | false {
  return query.state.status === 'error' ? FAILED_READ_RETRY_INTERVAL_MS : false;
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // supabase-js already retries a read that lost its connection (3 times over 7 s); retrying that
        // whole series again kept the placeholders up for over 20 s while the API was down.
        retry: false,
        refetchInterval: refetchWhileFailed,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
    },
  });
}

/**
 * The app's one cache of server data, shared by every page that reads or writes it. It lives in its
 * own module, loaded with the first such page, so the public pages' visitors never download it.
 */
export const queryClient = createQueryClient();
