import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatUsd } from '@/lib/format';
import { CoinIdentity, CoinIdentitySkeleton } from '@/components/coin-identity';
import type { MarketCoinsProps } from '../types';
import { PriceChange } from '@/components/price-change';

const cardClass = 'flex h-28 flex-col justify-between gap-2 p-4';

/** Small screens: one card per coin with the same facts as a table row; `star` before a coin's name. */
export function MarketCards({ coins, star }: MarketCoinsProps) {
  return (
    <ul className="grid gap-3">
      {coins.map((coin) => (
        <li key={coin.id}>
          <Card className={cardClass}>
            <div className="flex items-start justify-between gap-3">
              <span className="flex items-center gap-2">
                {star?.(coin)}
                <CoinIdentity coin={coin} />
              </span>
              <div className="flex flex-col items-end">
                <span className="font-semibold tabular-nums">{formatUsd(coin.current_price)}</span>
                <PriceChange value={coin.price_change_percentage_24h} className="text-sm" />
              </div>
            </div>
            <dl className="text-muted-foreground flex justify-between text-xs">
              <div className="flex gap-1">
                <dt>Rank</dt>
                <dd className="text-foreground tabular-nums">#{coin.market_cap_rank ?? '—'}</dd>
              </div>
              <div className="flex gap-1">
                <dt>Market Cap</dt>
                <dd className="text-foreground tabular-nums">
                  {formatUsd(coin.market_cap, { precision: 'whole' })}
                </dd>
              </div>
            </dl>
          </Card>
        </li>
      ))}
    </ul>
  );
}

/** The cards' shape while loading. */
export function MarketCardsSkeleton({ rows }: { rows: number }) {
  return (
    <ul aria-hidden className="grid gap-3">
      {Array.from({ length: rows }, (_, index) => (
        <li key={index}>
          <Card className={cardClass}>
            <div className="flex items-start justify-between">
              <CoinIdentitySkeleton />
              <span className="flex flex-col items-end gap-1.5">
                <Skeleton className="h-4 w-20" />
                <Skeleton className="h-3.5 w-12" />
              </span>
            </div>
            <span className="flex justify-between">
              <Skeleton className="h-3 w-12" />
              <Skeleton className="h-3 w-36" />
            </span>
          </Card>
        </li>
      ))}
    </ul>
  );
}
