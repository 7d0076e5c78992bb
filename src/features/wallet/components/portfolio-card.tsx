import { PieChartIcon } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { QueryState, SkeletonRows, type QueryView } from '@/components/query-state';
import { CoinIdentity } from '@/components/coin-identity';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { coinName, coinPricesOf } from '@domain/coins.ts';
import { formatCryptoAmount, formatPercent, formatUsd } from '@/lib/format';
import type { MarketCoin } from '@/lib/market';
import { cn } from '@/lib/utils';
import type { WalletBalance } from '@/lib/wallet-balance';
import type { Holding } from '../api/get-holdings';
import { valuePortfolio, type PortfolioPosition } from '../utils/portfolio';

const NOT_PRICED = '—';

/** A profit or loss: signed USD and percentage, green from 0 up, red below. */
function ProfitLoss({ profit, percent }: { profit: number | undefined; percent: number | undefined }) {
  if (profit === undefined) return <span className="text-muted-foreground">{NOT_PRICED}</span>;
  const rise = profit >= 0;
  return (
    <span className={cn('tabular-nums', rise ? 'text-success' : 'text-destructive')}>
      {rise ? '+' : ''}
      {formatUsd(profit)}
      {percent !== undefined && ` (${rise ? '+' : ''}${formatPercent(percent)})`}
    </span>
  );
}

const usdOrDash = (value: number | undefined) => (value === undefined ? NOT_PRICED : formatUsd(value));

/** The portfolio's table: its header, the rows given, and the USD balance last. */
function PortfolioTable({ balance, children }: { balance: WalletBalance | undefined; children: ReactNode }) {
  return (
    <Table aria-label="Portfolio">
      <TableHeader>
        <TableRow>
          <TableHead>Coin</TableHead>
          <TableHead align="right">Quantity</TableHead>
          <TableHead align="right">Value</TableHead>
          <TableHead align="right">Average cost</TableHead>
          <TableHead align="right">Profit/loss</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {children}
        <TableRow data-testid="portfolio-usd-balance">
          <TableCell colSpan={2}>USD balance</TableCell>
          <TableCell className="text-right tabular-nums">
            {balance === undefined ? NOT_PRICED : formatUsd(balance.available)}
          </TableCell>
          <TableCell colSpan={2} />
        </TableRow>
      </TableBody>
    </Table>
  );
}

/** What a person can do with a coin held (Sell), shown beside its name. */
type RowAction = (position: PortfolioPosition, coin: MarketCoin | undefined) => ReactNode;

/** Each coin held, valued at the live prices, and the total. */
function Positions({
  holdings,
  coins,
  rowAction,
}: {
  holdings: readonly Holding[];
  coins: readonly MarketCoin[];
  rowAction: RowAction | undefined;
}) {
  const coinsById = useMemo(() => new Map(coins.map((coin) => [coin.id, coin])), [coins]);
  const portfolio = useMemo(() => valuePortfolio(holdings, coinPricesOf(coins)), [holdings, coins]);
  if (portfolio.positions.length === 0)
    return (
      <TableRow>
        <TableCell colSpan={5} className="text-muted-foreground">
          You hold no coins yet: approved buy requests appear here.
        </TableCell>
      </TableRow>
    );
  return (
    <>
      {portfolio.positions.map((position) => {
        const coin = coinsById.get(position.cryptocurrency);
        return (
          <TableRow key={position.cryptocurrency} data-testid="portfolio-row">
            <TableCell>
              <div className="flex items-center justify-between gap-2">
                {coin ? <CoinIdentity coin={coin} /> : coinName(position.cryptocurrency)}
                {rowAction?.(position, coin)}
              </div>
            </TableCell>
            <TableCell className="text-right tabular-nums">{formatCryptoAmount(position.quantity)}</TableCell>
            <TableCell className="text-right tabular-nums">{usdOrDash(position.value)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatUsd(position.averageCost)}</TableCell>
            <TableCell className="text-right">
              <ProfitLoss profit={position.profit} percent={position.profitPercent} />
            </TableCell>
          </TableRow>
        );
      })}
      <TableRow data-testid="portfolio-total" className="font-medium">
        <TableCell colSpan={2}>Total</TableCell>
        <TableCell className="text-right tabular-nums">{usdOrDash(portfolio.value)}</TableCell>
        <TableCell className="text-right tabular-nums">{formatUsd(portfolio.cost)}</TableCell>
        <TableCell className="text-right">
          <ProfitLoss profit={portfolio.profit} percent={portfolio.profitPercent} />
        </TableCell>
      </TableRow>
    </>
  );
}

/**
 * 'Portfolio': each coin held (from the ledger, via the database's holdings) with its quantity, its value
 * at the live price, the average cost paid and the unrealised profit or loss; the total, and the USD
 * balance beside it. Live: prices refresh every minute and the holdings whenever the ledger changes.
 * Loads and fails through the shared first-load mechanism.
 */
export function PortfolioCard({
  holdings,
  coins,
  balance,
  rowAction,
}: {
  holdings: QueryView<readonly Holding[]>;
  coins: readonly MarketCoin[];
  balance: WalletBalance | undefined;
  rowAction?: RowAction;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <PieChartIcon className="text-primary size-4" aria-hidden />
          Portfolio
        </CardTitle>
        <CardDescription>The coins you hold, valued at live prices</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={holdings}
          errorMessage="Failed to load your portfolio"
          placeholder={
            <PortfolioTable balance={balance}>
              <SkeletonRows rows={2} columns={5} />
            </PortfolioTable>
          }
        >
          {(held) => (
            <PortfolioTable balance={balance}>
              <Positions holdings={held} coins={coins} rowAction={rowAction} />
            </PortfolioTable>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
