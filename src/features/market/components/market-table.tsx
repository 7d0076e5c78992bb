import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatUsd } from '@/lib/format';
import { CoinIdentity, CoinIdentitySkeleton } from '@/components/coin-identity';
import type { MarketCoinsProps } from '../types';
import { PriceChange } from '@/components/price-change';
import { CoinPriceHeadings } from '@/components/coin-price-headings';

const numeric = 'text-right tabular-nums';

function MarketTableHeader() {
  return (
    <TableHeader>
      <TableRow>
        <CoinPriceHeadings />
        <TableHead align="right">Market Cap</TableHead>
      </TableRow>
    </TableHeader>
  );
}

/** Wide screens: one row per coin, money right-aligned in tabular figures; `star` before a coin's name. */
export function MarketTable({ coins, star }: MarketCoinsProps) {
  return (
    <Table>
      <MarketTableHeader />
      <TableBody>
        {coins.map((coin) => (
          <TableRow key={coin.id} className="h-16">
            <TableCell className="text-muted-foreground tabular-nums">
              {coin.market_cap_rank ?? '—'}
            </TableCell>
            <TableCell>
              <span className="flex items-center gap-2">
                {star?.(coin)}
                <CoinIdentity coin={coin} />
              </span>
            </TableCell>
            <TableCell className={`${numeric} font-medium`}>{formatUsd(coin.current_price)}</TableCell>
            <TableCell className="text-right">
              <PriceChange value={coin.price_change_percentage_24h} />
            </TableCell>
            <TableCell className={numeric}>{formatUsd(coin.market_cap, { precision: 'whole' })}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The table's shape while loading, row for row, so nothing moves when the data arrives. */
export function MarketTableSkeleton({ rows }: { rows: number }) {
  return (
    <Table aria-hidden>
      <MarketTableHeader />
      <TableBody>
        {Array.from({ length: rows }, (_, index) => (
          <TableRow key={index} className="h-16">
            <TableCell>
              <Skeleton className="h-4 w-5" />
            </TableCell>
            <TableCell>
              <CoinIdentitySkeleton />
            </TableCell>
            <TableCell>
              <Skeleton className="ml-auto h-4 w-20" />
            </TableCell>
            <TableCell>
              <Skeleton className="ml-auto h-4 w-14" />
            </TableCell>
            <TableCell>
              <Skeleton className="ml-auto h-4 w-32" />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
