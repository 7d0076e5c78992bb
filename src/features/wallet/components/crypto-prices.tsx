import { useDeferredValue } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CoinIdentity } from '@/components/coin-identity';
import { PriceChange } from '@/components/price-change';
import { SkeletonRows } from '@/components/query-state';
import { Table, TableBody, TableCell, TableHeader, TableRow } from '@/components/ui/table';
import { CoinPriceHeadings } from '@/components/coin-price-headings';
import { formatUsd } from '@/lib/format';
import type { MarketCoin, MarketSource } from '@/lib/market';

const SKELETON_ROWS = 10;

/** What the prices are when they are not the live market's. */
const sourceNotes: Partial<Record<MarketSource, string>> = {
  simulator: 'Simulated prices from the local market simulator',
  // The specification's feed falls back silently; prices a person may act on must not pass for current.
  sample: 'Sample prices, not current: live market data cannot be reached right now.',
};

/**
 * 'Cryptocurrency Prices': the top coins with rank, name, price and 24h change. The feed never fails
 * here: on any failure it gives the built-in sample, which the card marks as such. New prices are drawn
 * in an interruptible render of their own (`useDeferredValue`): the rows, ~150 elements, made the
 * synchronous render that shows the market's answer a 30–45 ms task.
 */
export function CryptoPrices(props: {
  coins: readonly MarketCoin[];
  isLoading: boolean;
  /** Where the prices come from (unknown while loading). */
  source: MarketSource | undefined;
}) {
  const coins = useDeferredValue(props.coins);
  const isLoading = useDeferredValue(props.isLoading);
  const source = useDeferredValue(props.source);
  const note = source && sourceNotes[source];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Cryptocurrency Prices</CardTitle>
        {note && <CardDescription data-testid="prices-source-note">{note}</CardDescription>}
      </CardHeader>
      <CardContent>
        <Table>
          <TableHeader>
            <TableRow>
              <CoinPriceHeadings />
            </TableRow>
          </TableHeader>
          <TableBody>
            {isLoading ? (
              <SkeletonRows rows={SKELETON_ROWS} columns={4} />
            ) : (
              coins.map((coin) => (
                <TableRow key={coin.id}>
                  <TableCell className="tabular-nums">{coin.market_cap_rank ?? '–'}</TableCell>
                  <TableCell>
                    <CoinIdentity coin={coin} />
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{formatUsd(coin.current_price)}</TableCell>
                  <TableCell className="text-right">
                    <PriceChange value={coin.price_change_percentage_24h} />
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
