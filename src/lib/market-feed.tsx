import { createContext, useContext, useState, useSyncExternalStore, type ReactNode } from 'react';
import {
  loadMarketSnapshot,
  MARKET_REFETCH_INTERVAL_MS,
  TOP_COINS_COUNT,
  type MarketSnapshot,
} from './market';

/*
 * The market feed is the one piece of data the public landing page shows, so it does not go through
 * TanStack Query: that library would be a tenth of a visitor's first load (bench/landing-bundle).
 * What the screens need from it is small: one shared copy per coin count, fetched when the first
 * screen shows it, refreshed every minute while any screen does, reused for a minute after.
 */

/** One coin count's feed: shared by every screen that shows it. */
class MarketFeed {
  private snapshot: MarketSnapshot | undefined;
  private fetchedAt = 0;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private request: AbortController | undefined;

  constructor(private readonly count: number) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.scheduleRefresh();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.pause();
    };
  };

  readonly getSnapshot = (): MarketSnapshot | undefined => this.snapshot;

  private scheduleRefresh() {
    const due = this.snapshot ? this.fetchedAt + MARKET_REFETCH_INTERVAL_MS - Date.now() : 0;
    this.timer = setTimeout(() => void this.refresh(), Math.max(0, due));
  }

  private async refresh() {
    const request = new AbortController();
    this.request = request;
    // Never throws: any failure gives the built-in sample (spec: the visitor sees no message).
    const snapshot = await loadMarketSnapshot(this.count, request.signal);
    if (request.signal.aborted) return;
    this.snapshot = snapshot;
    this.fetchedAt = Date.now();
    this.listeners.forEach((listener) => listener());
    this.scheduleRefresh();
  }

  /** Nobody shows this feed any more: stop refreshing, keep the last snapshot for the next screen. */
  private pause() {
    clearTimeout(this.timer);
    this.request?.abort();
  }
}

/** The app's feeds, one per coin count. */
class MarketFeeds {
  private readonly feeds = new Map<number, MarketFeed>();

  feedFor(count: number): MarketFeed {
    let feed = this.feeds.get(count);
    if (!feed) {
      feed = new MarketFeed(count);
      this.feeds.set(count, feed);
    }
    return feed;
  }
}

const MarketFeedsContext = createContext<MarketFeeds | null>(null);

export function MarketFeedsProvider({ children }: { children: ReactNode }) {
  const [feeds] = useState(() => new MarketFeeds());
  return <MarketFeedsContext value={feeds}>{children}</MarketFeedsContext>;
}

// The hook lives beside its provider so every screen imports both from one place.
// eslint-disable-next-line react-refresh/only-export-components
export function useMarketCoins(count: number = TOP_COINS_COUNT): { data: MarketSnapshot | undefined } {
  const feeds = useContext(MarketFeedsContext);
  if (!feeds) throw new Error('useMarketCoins must be used within a MarketFeedsProvider');
  const feed = feeds.feedFor(count);
  return { data: useSyncExternalStore(feed.subscribe, feed.getSnapshot) };
}
