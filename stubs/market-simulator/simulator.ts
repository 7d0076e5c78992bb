import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { coinLogoPng } from './logos';
import { marketAt, sparklineAt, type MarketItem } from './prices';

/**
 * A stand-in for CoinGecko's public API (`/api/v3/coins/markets`, `/api/v3/ping`) with the top 10
 * coins, prices that move smoothly, and logos served locally: the `market` function's upstream when
 * the local stack runs offline. It answers under any mount prefix (the gateway mounts it at
 * `/simulator`), and marks its answers `x-market-source: simulator` so the app can say the prices
 * are simulated.
 */

export interface SimulatorStats {
  /** `/coins/markets` calls received, in total and per query string. */
  marketsRequests: number;
  byQuery: Record<string, number>;
  /** The latest calls (up to 10,000), oldest first, for per-minute rates. */
  calls: { query: string; at: number }[];
}

const MAX_REMEMBERED_CALLS = 10_000;

export interface MarketSimulator {
  /** Node `http` handler; the gateway passes it every request under its mount point. */
  handle(request: IncomingMessage, response: ServerResponse): void;
  stats(): SimulatorStats;
  /** While down, `/coins/markets` answers 503, as a provider outage would. */
  setOutage(down: boolean): void;
}

const ORDERS: Record<string, (a: MarketItem, b: MarketItem) => number> = {
  market_cap_desc: (a, b) => b.market_cap - a.market_cap,
  market_cap_asc: (a, b) => a.market_cap - b.market_cap,
  volume_desc: (a, b) => b.total_volume - a.total_volume,
  volume_asc: (a, b) => a.total_volume - b.total_volume,
  id_asc: (a, b) => a.id.localeCompare(b.id),
  id_desc: (a, b) => b.id.localeCompare(a.id),
};

const ROUTE =
  /^(?<prefix>.*?)\/(?:api\/v3\/(?<api>ping|coins\/markets)|images\/(?<logo>[\w-]+)\.png|(?<stats>stats))\/?$/;

const baseHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'x-market-source',
  'x-market-source': 'simulator',
};

function send(
  response: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string>,
) {
  response.writeHead(status, { ...baseHeaders, 'Content-Length': Buffer.byteLength(body), ...headers });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  send(response, status, JSON.stringify(body), { 'Content-Type': 'application/json; charset=utf-8' });
}

/** CoinGecko's `per_page` and `page` rules: whole numbers, `per_page` from 1 to 250. */
function positiveInteger(text: string | null, fallback: number, max: number): number | undefined {
  if (text === null) return fallback;
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 ? Math.min(value, max) : undefined;
}

export function createMarketSimulator({ now = Date.now }: { now?: () => number } = {}): MarketSimulator {
  const byQuery = new Map<string, number>();
  const calls: SimulatorStats['calls'] = [];
  let down = false;

  function markets(request: IncomingMessage, response: ServerResponse, url: URL, prefix: string) {
    byQuery.set(url.search, (byQuery.get(url.search) ?? 0) + 1);
    calls.push({ query: url.search, at: now() });
    if (calls.length > MAX_REMEMBERED_CALLS) calls.shift();
    if (down) return sendJson(response, 503, { error: 'Service temporarily unavailable' });

    const params = url.searchParams;
    const currency = params.get('vs_currency');
    if (!currency) return sendJson(response, 400, { error: 'Missing parameter vs_currency' });
    if (currency.toLowerCase() !== 'usd') return sendJson(response, 400, { error: 'invalid vs_currency' });
    const compare = ORDERS[params.get('order') ?? 'market_cap_desc'];
    if (!compare) return sendJson(response, 400, { error: 'invalid order' });
    const perPage = positiveInteger(params.get('per_page'), 100, 250);
    const page = positiveInteger(params.get('page'), 1, Number.MAX_SAFE_INTEGER);
    if (perPage === undefined || page === undefined) {
      return sendJson(response, 400, { error: 'invalid per_page or page' });
    }
    const ids = params
      .get('ids')
      ?.split(',')
      .map((id) => id.trim().toLowerCase())
      .filter(Boolean);
    const withSparkline = params.get('sparkline') === 'true';

    const origin = `http://${request.headers.host ?? 'localhost'}`;
    const time = now();
    const items = marketAt(time, (coinId) => `${origin}${prefix}/images/${coinId}.png`)
      .filter((item) => !ids?.length || ids.includes(item.id))
      .sort(compare)
      .slice((page - 1) * perPage, page * perPage)
      .map((item) =>
        withSparkline ? { ...item, sparkline_in_7d: { price: sparklineAt(item.id, time) } } : item,
      );
    sendJson(response, 200, items);
  }

  return {
    handle(request, response) {
      const url = new URL(request.url ?? '/', 'http://simulator.local');
      const route = ROUTE.exec(url.pathname)?.groups;
      if (request.method === 'OPTIONS') {
        return send(response, 204, '', {
          'Access-Control-Allow-Methods': 'GET, OPTIONS',
          'Access-Control-Allow-Headers': '*',
        });
      }
      if (!route || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return sendJson(response, 404, { error: 'Not found' });
      }
      const prefix = route.prefix ?? '';
      if (route.api === 'ping') return sendJson(response, 200, { gecko_says: '(V3) To the Moon!' });
      if (route.api === 'coins/markets') return markets(request, response, url, prefix);
      if (route.stats) return sendJson(response, 200, this.stats());
      const logo = coinLogoPng(route.logo ?? '');
      if (!logo) return sendJson(response, 404, { error: 'Not found' });
      send(response, 200, logo, {
        'Content-Type': 'image/png',
        'Cache-Control': 'public, max-age=86400',
      });
    },
    stats() {
      return {
        marketsRequests: [...byQuery.values()].reduce((sum, count) => sum + count, 0),
        byQuery: Object.fromEntries(byQuery),
        calls: [...calls],
      };
    },
    setOutage(isDown) {
      down = isDown;
    },
  };
}

/** Runs the simulator on its own port (benchmarks and tests that need no gateway). */
export async function startMarketSimulator(port = 0, host = '127.0.0.1') {
  const simulator = createMarketSimulator();
  const server = createServer((request, response) => simulator.handle(request, response));
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: boundPort } = server.address() as AddressInfo;
  return {
    simulator,
    /** What `COINGECKO_API_URL` should be to use this simulator. */
    apiUrl: `http://${host}:${boundPort}/api/v3`,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
