/**
 * The simulator's top 10: CoinGecko ids, symbols and names, a reference price and circulating supply
 * close to the real market, and how much each coin swings (stablecoins barely move).
 */
export interface SimulatedCoin {
  id: string;
  symbol: string;
  name: string;
  basePrice: number;
  circulatingSupply: number;
  /** Relative amplitude of the price swings (0.06 = prices roam about ±6% around the base). */
  volatility: number;
  /** Brand colour of the locally served logo. */
  colour: string;
}

export const simulatedCoins: readonly SimulatedCoin[] = [
  {
    id: 'bitcoin',
    symbol: 'btc',
    name: 'Bitcoin',
    basePrice: 95_000,
    circulatingSupply: 19_800_000,
    volatility: 0.05,
    colour: '#f7931a',
  },
  {
    id: 'ethereum',
    symbol: 'eth',
    name: 'Ethereum',
    basePrice: 3_400,
    circulatingSupply: 120_500_000,
    volatility: 0.07,
    colour: '#627eea',
  },
  {
    id: 'tether',
    symbol: 'usdt',
    name: 'Tether',
    basePrice: 1,
    circulatingSupply: 140_000_000_000,
    volatility: 0.0005,
    colour: '#26a17b',
  },
  {
    id: 'ripple',
    symbol: 'xrp',
    name: 'XRP',
    basePrice: 2.3,
    circulatingSupply: 57_000_000_000,
    volatility: 0.09,
    colour: '#23292f',
  },
  {
    id: 'binancecoin',
    symbol: 'bnb',
    name: 'BNB',
    basePrice: 650,
    circulatingSupply: 144_000_000,
    volatility: 0.06,
    colour: '#f3ba2f',
  },
  {
    id: 'solana',
    symbol: 'sol',
    name: 'Solana',
    basePrice: 190,
    circulatingSupply: 480_000_000,
    volatility: 0.1,
    colour: '#9945ff',
  },
  {
    id: 'usd-coin',
    symbol: 'usdc',
    name: 'USDC',
    basePrice: 1,
    circulatingSupply: 45_000_000_000,
    volatility: 0.0003,
    colour: '#2775ca',
  },
  {
    id: 'dogecoin',
    symbol: 'doge',
    name: 'Dogecoin',
    basePrice: 0.32,
    circulatingSupply: 147_000_000_000,
    volatility: 0.12,
    colour: '#c2a633',
  },
  {
    id: 'cardano',
    symbol: 'ada',
    name: 'Cardano',
    basePrice: 0.9,
    circulatingSupply: 35_000_000_000,
    volatility: 0.1,
    colour: '#0033ad',
  },
  {
    id: 'tron',
    symbol: 'trx',
    name: 'TRON',
    basePrice: 0.25,
    circulatingSupply: 86_000_000_000,
    volatility: 0.06,
    colour: '#eb0029',
  },
];
