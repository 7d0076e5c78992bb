/**
 * The `market` function's logic, in web-standard Request/Response only (runs in Deno, tested in Node).
 *
 * It answers `GET …/coins/markets?…` with CoinGecko's answer for the same query. Each distinct query is
 * fetched upstream at most once per `ttlMs` however many visitors ask (concurrent askers share one
 * in-flight call); when the upstream fails, the last good answer is served marked `stale`.
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
  /** Distinct queries remembered at once, so odd queries cannot grow memory without bound. */
  maxQueries?: number;
}

interface CacheEntry {
  body?: string;
  source?: string;
  fetchedAt?: number;
  attemptedAt: number;
  pending?: Promise<void>;
}

const ORDERS = new Set([
  'market_cap_desc',
  'market_cap_asc',
  'volume_desc',
  'volume_asc',
  'id_asc',
  'id_desc',
]);

/** The query parameters passed upstream, each with its check; anything else is refused. */
const PARAMETERS: Record<string, (value: string) => boolean> = {
  vs_currency: (value) => /^[a-z]{2,10}$/.test(value),
  order: (value) => ORDERS.has(value),
  per_page: (value) => /^\d{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= 250,
  page: (value) => /^\d{1,4}$/.test(value) && Number(value) >= 1,
  sparkline: (value) => value === 'true' || value === 'false',
  ids: (value) => /^[a-z0-9-]+(,[a-z0-9-]+)*$/.test(value) && value.length <= 1000,
  price_change_percentage: (value) =>
    /^(1h|24h|7d|14d|30d|200d|1y)(,(1h|24h|7d|14d|30d|200d|1y))*$/.test(value),
  precision: (value) => /^(full|\d{1,2})$/.test(value),
};

const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Expose-Headers': 'x-market-source, x-market-cache, age',
};

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The query in one canonical form (lower case, sorted), so equal queries share one cache entry. */
export function canonicalQuery(params: URLSearchParams): { query: string } | { error: string } {
  const entries: [string, string][] = [];
  for (const [name, rawValue] of params) {
    const check = PARAMETERS[name];
    if (!check) return { error: `Unsupported parameter: ${name}` };
    const value = rawValue.trim().toLowerCase();
    if (!check(value)) return { error: `Invalid value for ${name}` };
    if (entries.some(([seen]) => seen === name)) return { error: `Repeated parameter: ${name}` };
    entries.push([name, value]);
  }
  if (!entries.some(([name]) => name === 'vs_currency')) return { error: 'Missing parameter vs_currency' };
  entries.sort(([a], [b]) => a.localeCompare(b));
  return { query: new URLSearchParams(entries).toString() };
}

export function createMarketHandler({
  upstreamUrl,
  apiKey,
  fetchUpstream = fetch,
  now = Date.now,
  ttlMs = 60_000,
  timeoutMs = 8_000,
  maxQueries = 100,
}: MarketServiceOptions): (request: Request) => Promise<Response> {
  const cache = new Map<string, CacheEntry>();
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
      if (!Array.isArray(JSON.parse(text))) throw new Error('upstream answer is not a list');
      entry.body = text;
      entry.source = response.headers.get('x-market-source') ?? 'coingecko';
      entry.fetchedAt = now();
    } catch (error) {
      console.error(`market: upstream call for ?${query} failed`, error);
    }
  }

  function evictOldestIfFull() {
    if (cache.size < maxQueries) return;
    let oldest: [string, CacheEntry] | undefined;
    for (const candidate of cache) {
      if (!candidate[1].pending && (!oldest || candidate[1].attemptedAt < oldest[1].attemptedAt))
        oldest = candidate;
    }
    if (oldest) cache.delete(oldest[0]);
  }

  async function coinsMarkets(params: URLSearchParams): Promise<Response> {
    const canonical = canonicalQuery(params);
    if ('error' in canonical) return jsonResponse(400, { error: canonical.error });
    const { query } = canonical;

    let entry = cache.get(query);
    if (!entry) {
      evictOldestIfFull();
      entry = { attemptedAt: -Infinity };
      cache.set(query, entry);
    }
    const isFresh = (at = now()) => entry.fetchedAt !== undefined && at - entry.fetchedAt < ttlMs;

    let cacheState: 'hit' | 'miss' = 'hit';
    if (!isFresh()) {
      // One attempt per query per ttl, successful or not: a failing upstream is not hammered either.
      if (!entry.pending && now() - entry.attemptedAt >= ttlMs) {
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
    return coinsMarkets(url.searchParams);
  };
}
