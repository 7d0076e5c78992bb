/**
 * Coin names by CoinGecko id, for a coin the loaded market list does not hold (a request for a coin that
 * has left the top 10, or the feed is down and only the sample is at hand). The names are the provider's
 * own (`binancecoin` is `BNB`, `usd-coin` is `USDC`), so a list never shows a raw id.
 */
const knownCoinNames: Readonly<Record<string, string>> = {
  bitcoin: 'Bitcoin',
  ethereum: 'Ethereum',
  tether: 'Tether',
  ripple: 'XRP',
  binancecoin: 'BNB',
  solana: 'Solana',
  'usd-coin': 'USDC',
  dogecoin: 'Dogecoin',
  cardano: 'Cardano',
  tron: 'TRON',
  'staked-ether': 'Lido Staked Ether',
  'avalanche-2': 'Avalanche',
  'shiba-inu': 'Shiba Inu',
  polkadot: 'Polkadot',
  chainlink: 'Chainlink',
  litecoin: 'Litecoin',
};

/** Coin names by id from a loaded market list. */
export function coinNamesOf(coins: readonly { id: string; name: string }[] | undefined): Map<string, string> {
  return new Map(coins?.map((coin) => [coin.id, coin.name]));
}

/** Current USD prices by coin id from a loaded market list. */
export function coinPricesOf(
  coins: readonly { id: string; current_price: number }[] | undefined,
): Map<string, number> {
  return new Map(coins?.map((coin) => [coin.id, coin.current_price]));
}

/**
 * The name to show for the coin with this id: the loaded list's, else the known one, else the id's words
 * (`some-new-coin` reads `Some new coin`), never the id itself.
 */
export function coinName(id: string, loaded?: ReadonlyMap<string, string>): string {
  const known = loaded?.get(id) ?? knownCoinNames[id];
  if (known) return known;
  const words = id.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
