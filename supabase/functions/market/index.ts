import { serviceClient } from '../_shared/http.ts';
import { createMarketHandler } from './market-service.ts';

/**
 * `GET /functions/v1/market/coins/markets?…`: CoinGecko's `/coins/markets`, cached for a minute per
 * query and shared by every visitor (docs/architecture.md §3). Offline, the local stack points
 * `COINGECKO_API_URL` at its market simulator. Each fresh answer's prices are recorded in the database's
 * price snapshots with the service role (the only writer), so approvals are priced on the server.
 */
const database = serviceClient();

Deno.serve(
  createMarketHandler({
    upstreamUrl: Deno.env.get('COINGECKO_API_URL') || 'https://api.coingecko.com/api/v3',
    apiKey: Deno.env.get('COINGECKO_API_KEY') || undefined,
    recordPrices: async (prices) => {
      const { error } = await database.rpc('record_price_snapshots', { prices });
      if (error) throw new Error(error.message);
    },
  }),
);
