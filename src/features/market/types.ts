import type { ReactNode } from 'react';
import type { MarketCoin } from '@/lib/market';

/** What the market's table and cards show: the coins, and what goes before a coin's name (a star). */
export interface MarketCoinsProps {
  coins: readonly MarketCoin[];
  star?: (coin: MarketCoin) => ReactNode;
}
