import type { MarketCoin } from '@/lib/market';
import { Skeleton } from './ui/skeleton';
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

/** `CoinIdentity`'s shape while loading: a round logo and two lines. */
export function CoinIdentitySkeleton() {
  return (
    <span className="flex items-center gap-3">
      <Skeleton shape="circle" className="size-8" />
      <span className="flex flex-col gap-1.5">
        <Skeleton className="h-3.5 w-24" />
        <Skeleton className="h-3 w-10" />
      </span>
    </span>
  );
}
