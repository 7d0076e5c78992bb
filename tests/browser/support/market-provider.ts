import type { Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../../src/types/database';
import { recordCurrentPrices } from '../../support/keyed-calls';

/**
 * The market-data provider is the one outside party a test may stub. Fixed prices make converter results
 * and buy estimates checkable; Ethereum falls, unlike in the app's built-in sample, so a page showing
 * these coins shows the provider's answer and not the sample.
 */
const providerCoins = [
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
    price_change_percentage_24h: -2.1,
  },
];

/**
 * Answers the page's market requests with `providerCoins` (a coin's price replaced where `prices` names it);
 * while `isUp()` is false, fails them with a 503.
 */
export async function stubMarketProvider(
  page: Page,
  isUp: () => boolean = () => true,
  prices: Readonly<Record<string, number>> = {},
): Promise<void> {
  const coins = providerCoins.map((coin) => ({
    ...coin,
    current_price: prices[coin.id] ?? coin.current_price,
  }));
  await page.route('**/coins/markets?**', (route) =>
    isUp() ? route.fulfill({ json: coins }) : route.fulfill({ status: 503, body: 'down' }),
  );
}

/**
 * The server's current price of `coin`, freshly recorded: what an approval fills at. A page showing it makes
 * a price-protected request that an approval a moment later fills (the limit leaves 2 % for the price to move).
 */
export async function serverPrice(client: SupabaseClient<Database>, coin: string): Promise<number> {
  await recordCurrentPrices(client);
  const { data, error } = await client
    .from('latest_prices')
    .select('price')
    .eq('cryptocurrency', coin)
    .single();
  if (error) throw error;
  return Number(data.price);
}
