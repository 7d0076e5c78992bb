/**
 * The `market` function's logic, in web-standard Request/Response only (runs in Deno, tested in Node).
 *
 * It answers `GET …/coins/markets?…` with CoinGecko's answer for the same query. Only the queries the app
 * sends are valid (USD, by market cap, the first page of at most `TOP_COINS` coins, no sparkline), so the
 * cache holds at most one entry per valid query and no visitor can evict another's. Each query is fetched
 * upstream at most once per `ttlMs` however many visitors ask (concurrent askers share one in-flight call),
 * and all queries together at most `upstreamCallsPerMinute` times a minute, whatever the traffic. When the
 * upstream fails or the budget is spent, the last good answer is served marked `stale` with its `Age`.
 * Each address may ask `requestsPerMinutePerAddress` times a minute (a burst of that many, refilled evenly).
 * Every fresh upstream answer is handed to `recordPrices` (the database's price snapshots), at most once a
 * minute per query; a failure to record is logged and never costs a visitor their prices.
 */

export interface MarketServiceOptions {
  /** CoinGecko-compatible API root, e.g. `https://api.coingecko.com/api/v3`. */
  upstreamUrl: string;
  /** Optional CoinGecko key; kept here so it never reaches a browser. */
  apiKey?: string;
  fetchUpstream?: typeof fetch;
  now?: () => number;
  ttlMs?: number;
  timeoutMs?: number;
  /** Upstream calls allowed in any 60 s, for all queries together. */
  upstreamCallsPerMinute?: number;
  /** Requests one address may make per minute (also the burst it may make at once). */
  requestsPerMinutePerAddress?: number;
  /** Records the prices of a fresh upstream answer (the price snapshots). */
  recordPrices?: (prices: PriceSnapshot[]) => Promise<void>;
}

/** One coin's USD price, as record_price_snapshots takes it (a type, so that it is JSON to the client). */
export type PriceSnapshot = { cryptocurrency: string; price: number };

/** The positive USD prices of an upstream `/coins/markets` answer (a coin without a price is left out). */
export function pricesOf(coins: unknown[]): PriceSnapshot[] {
  return coins.flatMap((coin) => {
    if (typeof coin !== 'object' || coin === null) return [];
    const { id, current_price: price } = coin as { id?: unknown; current_price?: unknown };
    return typeof id === 'string' && typeof price === 'number' && Number.isFinite(price) && price > 0
      ? [{ cryptocurrency: id, price }]
      : [];
  });
}

interface CacheEntry {
  body?: string;
  source?: string;
  fetchedAt?: number;
  attemptedAt: number;
  pending?: Promise<void>;
}

/** The most coins the app asks for (its top-10 lists). */
export const TOP_COINS = 10;

/**
 * The query parameters the app sends, each with its accepted values and its default when left out;
 * anything else is refused. The app prices everything in USD and lists the top coins by market cap.
 */
const PARAMETERS: Record<string, { accepts: (value: string) => boolean; default?: string }> = {
  vs_currency: { accepts: (value) => value === 'usd' },
  order: { accepts: (value) => value === 'market_cap_desc', default: 'market_cap_desc' },
  per_page: {
    accepts: (value) => /^\d{1,2}$/.test(value) && Number(value) >= 1 && Number(value) <= TOP_COINS,
    default: String(TOP_COINS),
  },
  page: { accepts: (value) => value === '1', default: '1' },
  sparkline: { accepts: (value) => value === 'false', default: 'false' },
};

const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Expose-Headers': 'x-market-source, x-market-cache, age, retry-after',
};

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

/**
 * The query in one canonical form (lower case, defaults filled in, sorted), so equal queries share one
 * cache entry.
 */
export function canonicalQuery(params: URLSearchParams): { query: string } | { error: string } {
  const values = new Map<string, string>();
  for (const [name, rawValue] of params) {
    const parameter = PARAMETERS[name];
    if (!parameter) return { error: `Unsupported parameter: ${name}` };
    const value = rawValue.trim().toLowerCase();
    if (!parameter.accepts(value)) return { error: `Invalid value for ${name}` };
    if (values.has(name)) return { error: `Repeated parameter: ${name}` };
    values.set(name, value);
  }
  if (!values.has('vs_currency')) return { error: 'Missing parameter vs_currency' };
  for (const [name, parameter] of Object.entries(PARAMETERS)) {
    if (!values.has(name) && parameter.default !== undefined) values.set(name, parameter.default);
  }
  const entries = [...values].sort(([a], [b]) => a.localeCompare(b));
  return { query: new URLSearchParams(entries).toString() };
}

/** The caller's address as the platform's proxy reports it (the first X-Forwarded-For hop). */
function callerAddress(request: Request): string {
  return request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
}

/** Addresses tracked at once; the least recently seen is forgotten first (a forgotten one starts afresh). */
const maxTrackedAddresses = 10_000;

export function createMarketHandler({
  upstreamUrl,
  apiKey,
  fetchUpstream = fetch,
  now = Date.now,
  ttlMs = 60_000,
  timeoutMs = 8_000,
  upstreamCallsPerMinute = 10,
  requestsPerMinutePerAddress = 300,
  recordPrices,
}: MarketServiceOptions): (request: Request) => Promise<Response> {
  const cache = new Map<string, CacheEntry>();
  /** When each upstream call of the last minute started. */
  const upstreamCalls: number[] = [];
  /** Per address: requests still allowed (refilled evenly over a minute) and when that was counted. */
  const allowances = new Map<string, { tokens: number; at: number }>();
  const root = upstreamUrl.replace(/\/+$/, '');
  // CoinGecko's paid plans use another host and header than its free demo keys.
  const keyHeader = /pro-api\.coingecko\.com/.test(root) ? 'x-cg-pro-api-key' : 'x-cg-demo-api-key';

  async function refresh(query: string, entry: CacheEntry) {
    try {
      const response = await fetchUpstream(`${root}/coins/markets?${query}`, {
        headers: { accept: 'application/json', ...(apiKey ? { [keyHeader]: apiKey } : {}) },
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`upstream answered ${response.status}: ${text.slice(0, 200)}`);
      const coins: unknown = JSON.parse(text);
      if (!Array.isArray(coins)) throw new Error('upstream answer is not a list');
      entry.body = text;
      entry.source = response.headers.get('x-market-source') ?? 'coingecko';
      entry.fetchedAt = now();
      await record(coins);
    } catch (error) {
      console.error(`market: upstream call for ?${query} failed`, error);
    }
  }

  async function record(coins: unknown[]) {
    try {
      await recordPrices?.(pricesOf(coins));
    } catch (error) {
      console.error('market: recording the price snapshots failed', error);
    }
  }

  /** Takes one upstream call from the minute's budget, or says the budget is spent. */
  function takeUpstreamCall(at: number): boolean {
    while (upstreamCalls.length > 0 && at - (upstreamCalls[0] ?? at) >= 60_000) upstreamCalls.shift();
    if (upstreamCalls.length >= upstreamCallsPerMinute) return false;
    upstreamCalls.push(at);
    return true;
  }

  /** Seconds until the address may ask again, or 0 when this request is allowed (and counted). */
  function addressWait(address: string, at: number): number {
    const perMs = requestsPerMinutePerAddress / 60_000;
    const known = allowances.get(address);
    const tokens = Math.min(
      requestsPerMinutePerAddress,
      known ? known.tokens + (at - known.at) * perMs : requestsPerMinutePerAddress,
    );
    allowances.delete(address);
    if (allowances.size >= maxTrackedAddresses) {
      const leastRecent = allowances.keys().next().value;
      if (leastRecent !== undefined) allowances.delete(leastRecent);
    }
    if (tokens < 1) {
      allowances.set(address, { tokens, at });
      return Math.ceil((1 - tokens) / perMs / 1000);
    }
    allowances.set(address, { tokens: tokens - 1, at });
    return 0;
  }

  async function coinsMarkets(params: URLSearchParams): Promise<Response> {
    const canonical = canonicalQuery(params);
    if ('error' in canonical) return jsonResponse(400, { error: canonical.error });
    const { query } = canonical;

    let entry = cache.get(query);
    if (!entry) {
      entry = { attemptedAt: -Infinity };
      cache.set(query, entry);
    }
    const isFresh = (at = now()) => entry.fetchedAt !== undefined && at - entry.fetchedAt < ttlMs;

    let cacheState: 'hit' | 'miss' = 'hit';
    if (!isFresh()) {
      // One attempt per query per ttl, successful or not: a failing upstream is not hammered either.
      if (!entry.pending && now() - entry.attemptedAt >= ttlMs && takeUpstreamCall(now())) {
        entry.attemptedAt = now();
        entry.pending = refresh(query, entry).finally(() => {
          entry.pending = undefined;
        });
      }
      if (entry.pending) {
        cacheState = 'miss';
        await entry.pending;
      }
    }

    if (entry.body === undefined || entry.fetchedAt === undefined) {
      return jsonResponse(502, { error: 'Market data is unavailable' }, { 'Cache-Control': 'no-store' });
    }
    const at = now();
    const age = Math.max(0, Math.floor((at - entry.fetchedAt) / 1000));
    const fresh = isFresh(at);
    const freshFor = Math.max(0, Math.floor((entry.fetchedAt + ttlMs - at) / 1000));
    return new Response(entry.body, {
      status: 200,
      headers: {
        ...corsHeaders,
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': fresh ? `public, max-age=${freshFor}` : 'no-store',
        Age: String(age),
        'x-market-cache': fresh ? cacheState : 'stale',
        'x-market-source': entry.source ?? 'coingecko',
      },
    });
  }

  return async (request) => {
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
    const url = new URL(request.url);
    if (!/\/coins\/markets\/?$/.test(url.pathname)) {
      return jsonResponse(404, { error: 'Not found: use /coins/markets' });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return jsonResponse(405, { error: 'Method not allowed' }, { Allow: 'GET, OPTIONS' });
    }
    const wait = addressWait(callerAddress(request), now());
    if (wait > 0) {
      return jsonResponse(429, { error: 'Too many requests' }, { 'Retry-After': String(wait) });
    }
    return coinsMarkets(url.searchParams);
  };
}
