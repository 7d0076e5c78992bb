import { env } from '@/config/env';
import { afterNextPaint } from './after-next-paint';

/**
 * Market data for the landing page, the wallet, the buy form and the converter: what a market item
 * is, the built-in sample, and one request to the feed. Screens read it through `market-feed.tsx`.
 */

/** A market item as CoinGecko's `/coins/markets` returns it (the fields the product uses). */
export interface MarketCoin {
  /** CoinGecko id (`bitcoin`); coins are keyed by it, never by symbol. */
  id: string;
  symbol: string;
  name: string;
  image: string;
  current_price: number;
  market_cap: number;
  market_cap_rank: number | null;
  price_change_percentage_24h: number | null;
}

/** Where the shown prices come from: the real provider, the local stack's simulator, or the built-in sample. */
export type MarketSource = 'live' | 'simulator' | 'sample';

export interface MarketSnapshot {
  coins: MarketCoin[];
  source: MarketSource;
  /**
   * When the prices were fetched, set only when they are stale: the market function served its last good
   * answer because the provider failed or its call budget was spent.
   */
  pricesAsOf?: Date;
}

export const TOP_COINS_COUNT = 10;
export const MARKET_REFETCH_INTERVAL_MS = 60_000;
const FETCH_TIMEOUT_MS = 10_000;
const MAX_SAMPLE_COINS = 2;

/** The specification's built-in sample, used whenever the feed fails. */
export const sampleMarketCoins: readonly MarketCoin[] = [
  {
    id: 'bitcoin',
    symbol: 'btc',
    name: 'Bitcoin',
    image: '',
    current_price: 30000,
    market_cap: 585_000_000_000,
    market_cap_rank: 1,
    price_change_percentage_24h: 1.5,
  },
  {
    id: 'ethereum',
    symbol: 'eth',
    name: 'Ethereum',
    image: '',
    current_price: 2000,
    market_cap: 240_000_000_000,
    market_cap_rank: 2,
    price_change_percentage_24h: 2.1,
  },
];

/** The sample cut to the requested count (it holds at most 2 coins). */
export function sampleSnapshot(count: number): MarketSnapshot {
  return { coins: sampleMarketCoins.slice(0, Math.min(count, MAX_SAMPLE_COINS)), source: 'sample' };
}

/** The specification's query: top coins in USD by market cap, first page, no sparkline. */
export function marketsUrl(count: number, baseUrl: string = env.marketApiUrl): string {
  const query = new URLSearchParams({
    vs_currency: 'usd',
    order: 'market_cap_desc',
    per_page: String(count),
    page: '1',
    sparkline: 'false',
  });
  return `${baseUrl}/coins/markets?${query.toString()}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const numberOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** Keeps the items that carry what the screens need; anything else from the provider is dropped. */
export function parseMarketCoins(body: unknown): MarketCoin[] {
  if (!Array.isArray(body)) throw new Error('Market data is not a list');
  return body.flatMap((item): MarketCoin[] => {
    if (!isRecord(item)) return [];
    const { id, symbol, name, image, current_price, market_cap } = item;
    if (typeof id !== 'string' || typeof symbol !== 'string' || typeof name !== 'string') return [];
    if (typeof current_price !== 'number' || !Number.isFinite(current_price)) return [];
    return [
      {
        id,
        symbol,
        name,
        image: typeof image === 'string' ? image : '',
        current_price,
        market_cap: numberOrNull(market_cap) ?? 0,
        market_cap_rank: numberOrNull(item.market_cap_rank),
        price_change_percentage_24h: numberOrNull(item.price_change_percentage_24h),
      },
    ];
  });
}

/**
 * One request to the market feed, once the frame that asked for it is drawn; throws on any failure. A plain
 * GET, so no CORS preflight.
 */
export async function fetchMarketSnapshot(count: number, signal?: AbortSignal): Promise<MarketSnapshot> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort);
  // A feed that hangs must not leave the page loading forever: it falls back like any other failure.
  const timeout = setTimeout(abort, FETCH_TIMEOUT_MS);
  try {
    await afterNextPaint();
    const response = await fetch(marketsUrl(count), { signal: controller.signal });
    if (!response.ok) throw new Error(`Market data request failed with status ${response.status}`);
    const coins = parseMarketCoins(await response.json());
    if (coins.length === 0) throw new Error('Market data is empty');
    const source: MarketSource =
      response.headers.get('x-market-source') === 'simulator' ? 'simulator' : 'live';
    const snapshot: MarketSnapshot = { coins: coins.slice(0, count), source };
    if (response.headers.get('x-market-cache') === 'stale') {
      snapshot.pricesAsOf = new Date(Date.now() - Number(response.headers.get('age') ?? '0') * 1000);
    }
    return snapshot;
  } finally {
    clearTimeout(timeout);
    signal?.removeEventListener('abort', abort);
  }
}

/** The feed, or on any failure the sample; the error is only logged, the visitor sees no message. */
export async function loadMarketSnapshot(count: number, signal?: AbortSignal): Promise<MarketSnapshot> {
  try {
    return await fetchMarketSnapshot(count, signal);
  } catch (error) {
    // A request cancelled because nobody shows the feed any more is not a failure.
    if (!signal?.aborted) console.error('Failed to fetch cryptocurrency prices', error);
    return sampleSnapshot(count);
  }
}
