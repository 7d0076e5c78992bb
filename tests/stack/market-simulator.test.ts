import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketAt } from '../../stubs/market-simulator/prices';
import { startMarketSimulator } from '../../stubs/market-simulator/simulator';

let simulator: Awaited<ReturnType<typeof startMarketSimulator>>;

beforeAll(async () => {
  simulator = await startMarketSimulator();
});

afterAll(async () => {
  await simulator.close();
});

interface Coin {
  id: string;
  current_price: number;
  market_cap: number;
  market_cap_rank: number;
  price_change_percentage_24h: number;
  sparkline_in_7d?: { price: number[] };
}

const markets = async (search: string) => {
  const response = await fetch(`${simulator.apiUrl}/coins/markets?${search}`);
  return { status: response.status, body: (await response.json()) as Coin[] & { error?: string } };
};

const logo = (id: string) => `/images/${id}.png`;

describe('the market simulator (offline CoinGecko)', () => {
  it('ranks the top 10 coins by market cap, as /coins/markets does', async () => {
    const { status, body } = await markets('vs_currency=usd&order=market_cap_desc&per_page=10&page=1');
    expect(status).toBe(200);
    expect(body.map((coin) => coin.market_cap_rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const caps = body.map((coin) => coin.market_cap);
    expect(caps).toEqual([...caps].sort((a, b) => b - a));
  });

  it('pages, filters by id and adds a 7-day sparkline on request', async () => {
    expect(
      (await markets('vs_currency=usd&per_page=3&page=2')).body.map((coin) => coin.market_cap_rank),
    ).toEqual([4, 5, 6]);
    const { body } = await markets('vs_currency=usd&ids=dogecoin,bitcoin&sparkline=true');
    expect(body.map((coin) => coin.id).sort()).toEqual(['bitcoin', 'dogecoin']);
    expect(body[0]?.sparkline_in_7d?.price).toHaveLength(168);
  });

  it("answers CoinGecko's errors for a missing or unknown currency", async () => {
    expect(await markets('per_page=10')).toEqual({
      status: 400,
      body: { error: 'Missing parameter vs_currency' },
    });
    expect((await markets('vs_currency=xyz')).status).toBe(400);
  });

  it('moves prices smoothly: a little within a minute, a few percent within a day', () => {
    const now = Date.UTC(2026, 10, 21, 12);
    const before = marketAt(now, logo);
    const minuteLater = marketAt(now + 60_000, logo);
    for (const coin of before) {
      const later = minuteLater.find((candidate) => candidate.id === coin.id);
      expect(later?.current_price).not.toBeUndefined();
      expect(Math.abs((later?.current_price ?? 0) / coin.current_price - 1)).toBeLessThan(0.01);
      expect(Math.abs(coin.price_change_percentage_24h)).toBeLessThan(25);
    }
    expect(minuteLater.some((coin, index) => coin.current_price !== before[index]?.current_price)).toBe(true);
  });

  it('counts the calls it receives, per query', async () => {
    const before = simulator.simulator.stats().byQuery['?vs_currency=usd&per_page=1'] ?? 0;
    await markets('vs_currency=usd&per_page=1');
    expect(simulator.simulator.stats().byQuery['?vs_currency=usd&per_page=1']).toBe(before + 1);
  });
});
