import type { Page } from '@playwright/test';

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

/** Answers the page's market requests with `providerCoins`; while `isUp()` is false, fails them with a 503. */
export async function stubMarketProvider(page: Page, isUp: () => boolean = () => true): Promise<void> {
  await page.route('**/coins/markets?**', (route) =>
    isUp() ? route.fulfill({ json: providerCoins }) : route.fulfill({ status: 503, body: 'down' }),
  );
}
