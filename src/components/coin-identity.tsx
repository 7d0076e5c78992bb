import type { MarketCoin } from '@/lib/market';
import { CoinAvatar } from './coin-avatar';

/** Logo, name and upper-case symbol of a coin. */
export function CoinIdentity({ coin }: { coin: MarketCoin }) {
  return (
    <span className="flex min-w-0 items-center gap-3">
      <CoinAvatar image={coin.image} symbol={coin.symbol} />
      <span className="flex min-w-0 flex-col leading-tight">
        <span className="truncate font-medium">{coin.name}</span>
        <span className="text-muted-foreground text-xs">{coin.symbol.toUpperCase()}</span>
      </span>
    </span>
  );
}
