import { vi } from 'vitest';
import { loadMarketSnapshot, marketsUrl, parseMarketCoins, sampleSnapshot } from './market';

const solana = {
  id: 'solana',
  symbol: 'sol',
  name: 'Solana',
  image: 'https://example.test/sol.png',
  current_price: 150.5,
  market_cap: 70_000_000_000,
  market_cap_rank: 5,
  price_change_percentage_24h: -3.2,
  ath: 260,
};

/** Stands in for the market-data provider only. */
function stubProvider(respond: (url: string) => Response | Promise<Response>) {
  const provider = vi.fn((input: RequestInfo | URL) => Promise.resolve(respond(String(input))));
  vi.stubGlobal('fetch', provider);
  return provider;
}

describe('the market feed request', () => {
  it("asks for the specification's query: usd, by market cap, the requested count, page 1, no sparkline", () => {
    const url = new URL(marketsUrl(10, 'https://market.test/api'));
    expect(url.pathname).toBe('/api/coins/markets');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      vs_currency: 'usd',
      order: 'market_cap_desc',
      per_page: '10',
      page: '1',
      sparkline: 'false',
    });
  });

  it('returns the coins the provider sent, keyed by their CoinGecko id', async () => {
    stubProvider(() => Response.json([solana]));
    const snapshot = await loadMarketSnapshot(10);
    expect(snapshot.source).toBe('live');
    expect(snapshot.coins).toEqual([
      {
        id: 'solana',
        symbol: 'sol',
        name: 'Solana',
        image: 'https://example.test/sol.png',
        current_price: 150.5,
        market_cap: 70_000_000_000,
        market_cap_rank: 5,
        price_change_percentage_24h: -3.2,
      },
    ]);
  });

  it('says when the prices come from the simulator', async () => {
    stubProvider(() => Response.json([solana], { headers: { 'x-market-source': 'simulator' } }));
    expect((await loadMarketSnapshot(10)).source).toBe('simulator');
  });

  it('says when stale prices were fetched (their age), and says nothing of fresh ones', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-11-24T12:00:00Z'));
    stubProvider(() => Response.json([solana], { headers: { 'x-market-cache': 'stale', age: '300' } }));
    expect((await loadMarketSnapshot(10)).pricesAsOf).toEqual(new Date('2026-11-24T11:55:00Z'));
    stubProvider(() => Response.json([solana], { headers: { 'x-market-cache': 'hit', age: '30' } }));
    expect((await loadMarketSnapshot(10)).pricesAsOf).toBeUndefined();
  });
});

describe('the fallback when the feed fails', () => {
  it.each([
    ['a server error', () => new Response('upstream down', { status: 503 })],
    ['a rate limit', () => new Response('Too Many Requests', { status: 429 })],
    ['a body that is not a list', () => Response.json({ error: 'bad' })],
    ['an empty list', () => Response.json([])],
    [
      'a network failure',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('on %s it shows the built-in sample and only logs the error', async (_case, respond) => {
    stubProvider(respond);
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const snapshot = await loadMarketSnapshot(10);
    expect(snapshot.source).toBe('sample');
    expect(
      snapshot.coins.map(({ id, current_price, market_cap_rank, price_change_percentage_24h }) => ({
        id,
        current_price,
        market_cap_rank,
        price_change_percentage_24h,
      })),
    ).toEqual([
      { id: 'bitcoin', current_price: 30000, market_cap_rank: 1, price_change_percentage_24h: 1.5 },
      { id: 'ethereum', current_price: 2000, market_cap_rank: 2, price_change_percentage_24h: 2.1 },
    ]);
    expect(log).toHaveBeenCalledOnce();
  });

  it('cuts the sample to the requested count, never more than its two coins', () => {
    expect(sampleSnapshot(1).coins.map((coin) => coin.id)).toEqual(['bitcoin']);
    expect(sampleSnapshot(10).coins).toHaveLength(2);
  });
});

describe('reading the provider answer', () => {
  it('drops items without an id, a name or a price, and keeps unknown changes as unknown', () => {
    const coins = parseMarketCoins([
      { ...solana, price_change_percentage_24h: null, market_cap_rank: null },
      { ...solana, id: undefined },
      { ...solana, current_price: 'cheap' },
      'not a coin',
    ]);
    expect(coins).toHaveLength(1);
    expect(coins[0]?.price_change_percentage_24h).toBeNull();
    expect(coins[0]?.market_cap_rank).toBeNull();
  });
});
