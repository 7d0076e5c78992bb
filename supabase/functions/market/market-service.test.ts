import { describe, expect, it, vi } from 'vitest';
import { createMarketHandler, type PriceSnapshot } from './market-service.ts';

const query = 'vs_currency=usd&order=market_cap_desc&per_page=10&page=1&sparkline=false';
const coins = [{ id: 'bitcoin', symbol: 'btc', name: 'Bitcoin', current_price: 95000 }];

/** A stand-in for CoinGecko: counts calls and answers what the test says. */
function fakeProvider(answer: () => Response | Promise<Response> = () => Response.json(coins)) {
  const calls: { url: string; headers: Headers }[] = [];
  const fetchUpstream = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), headers: new Headers(init?.headers) });
    return answer();
  }) as unknown as typeof fetch;
  return { calls, fetchUpstream };
}

function setup(
  answer?: () => Response | Promise<Response>,
  options: {
    apiKey?: string;
    upstreamUrl?: string;
    upstreamCallsPerMinute?: number;
    requestsPerMinutePerAddress?: number;
    recordPrices?: (prices: PriceSnapshot[]) => Promise<void>;
  } = {},
) {
  let time = 1_000_000;
  const provider = fakeProvider(answer);
  const handle = createMarketHandler({
    ...options,
    upstreamUrl: options.upstreamUrl ?? 'https://api.coingecko.test/api/v3',
    fetchUpstream: provider.fetchUpstream,
    now: () => time,
  });
  const ask = (search = query, init?: RequestInit) =>
    handle(new Request(`http://edge.test/market/coins/markets?${search}`, init));
  return { ...provider, ask, advance: (ms: number) => (time += ms) };
}

describe('the market function', () => {
  it("answers the provider's list for the same query", async () => {
    const { ask, calls } = setup();
    const response = await ask();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(coins);
    expect(new URL(calls[0]!.url).pathname).toBe('/api/v3/coins/markets');
    expect(Object.fromEntries(new URL(calls[0]!.url).searchParams)).toEqual({
      vs_currency: 'usd',
      order: 'market_cap_desc',
      per_page: '10',
      page: '1',
      sparkline: 'false',
    });
  });

  it('calls the provider once for 200 visitors asking at the same moment', async () => {
    const { ask, calls } = setup(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return Response.json(coins);
    });
    const answers = await Promise.all(Array.from({ length: 200 }, () => ask()));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('calls the provider again only once the minute is over', async () => {
    const { ask, calls, advance } = setup();
    expect((await ask()).headers.get('x-market-cache')).toBe('miss');
    advance(59_000);
    const cached = await ask();
    expect(cached.headers.get('x-market-cache')).toBe('hit');
    expect(cached.headers.get('cache-control')).toBe('public, max-age=1');
    expect(calls).toHaveLength(1);
    advance(1_000);
    await ask();
    expect(calls).toHaveLength(2);
  });

  it('treats the same query written differently as one query', async () => {
    const { ask, calls } = setup();
    await ask(query);
    await ask('sparkline=false&page=1&per_page=10&order=MARKET_CAP_DESC&vs_currency=USD');
    expect(calls).toHaveLength(1);
  });

  it('keeps different queries apart', async () => {
    const { ask, calls } = setup();
    await ask(query);
    await ask(query.replace('per_page=10', 'per_page=2'));
    expect(calls).toHaveLength(2);
  });

  it('serves the last good answer, marked stale, when the provider fails', async () => {
    let up = true;
    const { ask, advance } = setup(() =>
      up ? Response.json(coins) : new Response('Too Many Requests', { status: 429 }),
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await ask();
    up = false;
    advance(120_000);
    const response = await ask();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-market-cache')).toBe('stale');
    expect(response.headers.get('age')).toBe('120');
    expect(await response.json()).toEqual(coins);
  });

  it('does not retry a failing provider more than once a minute', async () => {
    const { ask, calls, advance } = setup(() => new Response('down', { status: 503 }));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect((await ask()).status).toBe(502);
    advance(30_000);
    expect((await ask()).status).toBe(502);
    expect(calls).toHaveLength(1);
    advance(30_000);
    await ask();
    expect(calls).toHaveLength(2);
  });

  it('answers an error when the provider has never answered well, so the app uses its sample', async () => {
    const { ask } = setup(() => Response.json({ status: { error_code: 429 } }));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await ask();
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: 'Market data is unavailable' });
  });

  it('says where the prices come from, readable by the browser', async () => {
    const simulated = setup(() => Response.json(coins, { headers: { 'x-market-source': 'simulator' } }));
    const response = await simulated.ask();
    expect(response.headers.get('x-market-source')).toBe('simulator');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('x-market-source');
    expect((await setup().ask()).headers.get('x-market-source')).toBe('coingecko');
  });

  it('sends the API key to the provider, never to the browser', async () => {
    const demo = setup(undefined, { apiKey: 'demo-key' });
    const response = await demo.ask();
    expect(demo.calls[0]!.headers.get('x-cg-demo-api-key')).toBe('demo-key');
    expect([...response.headers.values()].join(' ')).not.toContain('demo-key');
    const pro = setup(undefined, { apiKey: 'pro-key', upstreamUrl: 'https://pro-api.coingecko.com/api/v3' });
    await pro.ask();
    expect(pro.calls[0]!.headers.get('x-cg-pro-api-key')).toBe('pro-key');
  });

  it('refuses queries it does not pass on, without calling the provider', async () => {
    const { ask, calls } = setup();
    expect((await ask('order=market_cap_desc')).status).toBe(400);
    expect((await ask(`${query}&per_page=9999`)).status).toBe(400);
    expect((await ask(`${query}&callback=alert`)).status).toBe(400);
    expect(calls).toHaveLength(0);
  });

  it.each([
    ['a currency the app does not use', 'vs_currency=eur', 'Invalid value for vs_currency'],
    ['more coins than the app lists', 'vs_currency=usd&per_page=11', 'Invalid value for per_page'],
    ['another page', 'vs_currency=usd&page=2', 'Invalid value for page'],
    ['another order', 'vs_currency=usd&order=volume_desc', 'Invalid value for order'],
    ['a coin list', 'vs_currency=usd&ids=bitcoin', 'Unsupported parameter: ids'],
  ])('refuses %s with 400', async (_what, search, error) => {
    const { ask, calls } = setup();
    const response = await ask(search);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error });
    expect(calls).toHaveLength(0);
  });

  it('gives the app’s query written shorter the same cache entry (defaults filled in)', async () => {
    const { ask, calls } = setup();
    await ask(query);
    expect((await ask('vs_currency=usd')).headers.get('x-market-cache')).toBe('hit');
    expect(calls).toHaveLength(1);
  });

  it('under an anonymous flood of distinct queries keeps the prices up and the provider within its budget', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { ask, calls, advance } = setup(undefined, { upstreamCallsPerMinute: 3 });
    expect((await ask(query)).status).toBe(200);
    const flood: string[] = [];
    for (let round = 0; round < 50; round += 1) {
      flood.push(`vs_currency=usd&per_page=${(round % 10) + 1}`, `vs_currency=usd&per_page=${round + 11}`);
      flood.push(`vs_currency=usd&ids=coin-${round}`, `vs_currency=x${round}`);
    }
    for (let minute = 0; minute < 3; minute += 1) {
      const answers = await Promise.all(flood.map((search) => ask(search)));
      expect(answers.filter((answer) => answer.status >= 500).length).toBeGreaterThan(0);
      const landing = await ask(query);
      expect(landing.status).toBe(200);
      expect(await landing.json()).toEqual(coins);
      advance(60_000);
    }
    // One call for the landing, then at most three a minute whatever was asked.
    expect(calls.length).toBeLessThanOrEqual(1 + 3 * 3);
  });

  it('serves the last good answer, marked stale with its age, when the budget is spent', async () => {
    const { ask, calls, advance } = setup(undefined, { upstreamCallsPerMinute: 1 });
    await ask(query);
    advance(60_000);
    expect((await ask('vs_currency=usd&per_page=2')).status).toBe(200);
    const response = await ask(query);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-market-cache')).toBe('stale');
    expect(response.headers.get('age')).toBe('60');
    expect(calls).toHaveLength(2);
  });

  it('limits each address, with Retry-After, and keeps serving the others', async () => {
    const { ask, advance } = setup(undefined, { requestsPerMinutePerAddress: 5 });
    const from = (address: string) => ask(query, { headers: { 'X-Forwarded-For': `${address}, 10.0.0.1` } });
    for (let request = 0; request < 5; request += 1) expect((await from('203.0.113.7')).status).toBe(200);
    const refused = await from('203.0.113.7');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('12');
    expect(await refused.json()).toEqual({ error: 'Too many requests' });
    expect((await from('198.51.100.2')).status).toBe(200);
    advance(12_000);
    expect((await from('203.0.113.7')).status).toBe(200);
  });

  it('answers CORS preflights and refuses other paths and methods', async () => {
    const { ask } = setup();
    const handle = createMarketHandler({ upstreamUrl: 'https://api.coingecko.test/api/v3' });
    expect((await handle(new Request('http://edge.test/market/coins/list'))).status).toBe(404);
    expect((await ask(query, { method: 'OPTIONS' })).status).toBe(204);
    expect((await ask(query, { method: 'POST', body: '{}' })).status).toBe(405);
  });
});

describe('price snapshots', () => {
  it('records the prices of each fresh answer once, not of answers served from the cache', async () => {
    const recorded: PriceSnapshot[][] = [];
    const { ask, advance } = setup(
      () =>
        Response.json([
          ...coins,
          { id: 'ethereum', current_price: 3400.5 },
          { id: 'unpriced', current_price: null },
          { id: 'worthless', current_price: 0 },
        ]),
      { recordPrices: async (prices) => void recorded.push(prices) },
    );
    await ask();
    await ask();
    expect(recorded).toEqual([
      [
        { cryptocurrency: 'bitcoin', price: 95000 },
        { cryptocurrency: 'ethereum', price: 3400.5 },
      ],
    ]);
    advance(60_000);
    await ask();
    expect(recorded).toHaveLength(2);
  });

  it('still answers with the prices when recording them fails', async () => {
    const { ask } = setup(undefined, {
      recordPrices: () => Promise.reject(new Error('database down')),
    });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await ask();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-market-cache')).toBe('miss');
    expect(await response.json()).toEqual(coins);
    expect(errors).toHaveBeenCalledWith('market: recording the price snapshots failed', expect.any(Error));
    errors.mockRestore();
  });
});
