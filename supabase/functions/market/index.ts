import { createMarketHandler } from './market-service.ts';

/**
 * `GET /functions/v1/market/coins/markets?…`: CoinGecko's `/coins/markets`, cached for a minute per
 * query and shared by every visitor (docs/architecture.md §3). Offline, the local stack points
 * `COINGECKO_API_URL` at its market simulator.
 */
Deno.serve(
  createMarketHandler({
    upstreamUrl: Deno.env.get('COINGECKO_API_URL') || 'https://api.coingecko.com/api/v3',
    apiKey: Deno.env.get('COINGECKO_API_KEY') || undefined,
  }),
);
