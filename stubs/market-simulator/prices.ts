import { simulatedCoins, type SimulatedCoin } from './coins';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Slow, medium and fast waves: over a day prices drift a few percent, minute to minute they move
 * visibly but smoothly. Prices are a pure function of time, so every caller sees the same market.
 */
const waves = [
  { weight: 0.5, period: 3.1 * DAY },
  { weight: 0.3, period: 7.3 * HOUR },
  { weight: 0.2, period: 37 * MINUTE },
] as const;

function priceAt(coin: SimulatedCoin, coinIndex: number, time: number): number {
  const swing = waves.reduce(
    (sum, { weight, period }, waveIndex) =>
      sum + weight * Math.sin((2 * Math.PI * time) / period + (coinIndex + 1) * (waveIndex + 1.7)),
    0,
  );
  return coin.basePrice * (1 + coin.volatility * swing);
}

/** Prices as CoinGecko quotes them: 2 decimals from a dollar up, 6 significant digits below. */
function quote(price: number): number {
  return price >= 1 ? Math.round(price * 100) / 100 : Number(price.toPrecision(6));
}

/** One entry of CoinGecko's `/coins/markets` answer. */
export interface MarketItem {
  id: string;
  symbol: string;
  name: string;
  image: string;
  current_price: number;
  market_cap: number;
  market_cap_rank: number;
  fully_diluted_valuation: number | null;
  total_volume: number;
  high_24h: number;
  low_24h: number;
  price_change_24h: number;
  price_change_percentage_24h: number;
  market_cap_change_24h: number;
  market_cap_change_percentage_24h: number;
  circulating_supply: number;
  total_supply: number;
  max_supply: number | null;
  last_updated: string;
  sparkline_in_7d?: { price: number[] };
}

/** The whole simulated market at `time`, ranked by market cap; `imageUrl` maps a coin id to its logo. */
export function marketAt(time: number, imageUrl: (coinId: string) => string): MarketItem[] {
  const items = simulatedCoins.map((coin, index): MarketItem => {
    const price = priceAt(coin, index, time);
    const dayAgo = priceAt(coin, index, time - DAY);
    // Sampled every 30 minutes: enough to bound the day's range of these smooth waves.
    const dayPrices = Array.from({ length: 49 }, (_, step) =>
      priceAt(coin, index, time - step * 30 * MINUTE),
    );
    const marketCap = Math.round(price * coin.circulatingSupply);
    const marketCapDayAgo = Math.round(dayAgo * coin.circulatingSupply);
    return {
      id: coin.id,
      symbol: coin.symbol,
      name: coin.name,
      image: imageUrl(coin.id),
      current_price: quote(price),
      market_cap: marketCap,
      market_cap_rank: 0,
      fully_diluted_valuation: marketCap,
      // Daily volume of a few percent of the market cap, wobbling with the price.
      total_volume: Math.round(marketCap * (0.03 + 0.01 * Math.sin(time / HOUR + index))),
      high_24h: quote(Math.max(...dayPrices)),
      low_24h: quote(Math.min(...dayPrices)),
      price_change_24h: quote(price - dayAgo),
      price_change_percentage_24h: Number((((price - dayAgo) / dayAgo) * 100).toFixed(5)),
      market_cap_change_24h: marketCap - marketCapDayAgo,
      market_cap_change_percentage_24h: Number(
        (((marketCap - marketCapDayAgo) / marketCapDayAgo) * 100).toFixed(5),
      ),
      circulating_supply: coin.circulatingSupply,
      total_supply: coin.circulatingSupply,
      max_supply: coin.id === 'bitcoin' ? 21_000_000 : null,
      last_updated: new Date(time).toISOString(),
    };
  });
  items.sort((a, b) => b.market_cap - a.market_cap);
  return items.map((item, rank) => ({ ...item, market_cap_rank: rank + 1 }));
}

/** Hourly prices over the last 7 days, oldest first (CoinGecko's `sparkline=true`). */
export function sparklineAt(coinId: string, time: number): number[] {
  const index = simulatedCoins.findIndex((coin) => coin.id === coinId);
  const coin = simulatedCoins[index];
  if (!coin) return [];
  return Array.from({ length: 168 }, (_, hour) => quote(priceAt(coin, index, time - (167 - hour) * HOUR)));
}
