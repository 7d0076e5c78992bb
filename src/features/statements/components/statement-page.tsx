import { PrinterIcon } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { coinName } from '@domain/coins.ts';
import { quantityTo8, toCents } from '@/lib/decimal';
import { formatCryptoAmount, formatDate, formatDateTime, formatStatus, formatUsd } from '@/lib/format';
import { useSaleLots, type SaleLot } from '../api/get-sale-lots';
import { useStatement, type Statement, type StatementPeriod } from '../api/get-statement';
import { viewerTimeZone } from '../utils/statement-csv';
import { periodProblem, thisMonth } from './statement-period';
import { ErrorMessage } from '@/components/error-message';

const numeric = 'text-right tabular-nums';

/** The balance before the period, completed money in and out of it by type, and the balance after it. */
function totals({ openingBalance, closingBalance, entries }: Statement) {
  const sum = (type: string) =>
    entries
      .filter((entry) => entry.type === type && entry.status.toLowerCase() === 'complete')
      .reduce((total, entry) => total + entry.amount, 0);
  return [
    { label: 'Opening balance', amount: openingBalance },
    { label: 'Deposits (completed)', amount: sum('deposit') },
    { label: 'Withdrawals (completed)', amount: sum('withdraw') },
    { label: 'Buys (completed)', amount: sum('buy') },
    { label: 'Sells (completed)', amount: sum('sell') },
    { label: 'Closing balance', amount: closingBalance },
  ];
}

/** What a sale consumed, in words: `0.5 bought 2024-01-10 (cost $50.00, short-term)`, one per lot. */
function SaleLots({ lots }: { lots: readonly SaleLot[] }) {
  return (
    <ul className="text-muted-foreground mt-1 grid gap-0.5 text-xs" aria-label="Lots consumed">
      {lots.map((lot) => (
        <li key={lot.lotId ?? 'none'} data-testid="sale-lot">
          {quantityTo8(lot.quantity)} bought {lot.dateAcquired ?? 'before any recorded buy'} (cost{' '}
          {formatUsd(Number(toCents(lot.costBasis)) / 100)}
          {lot.term && `, ${lot.term}-term`})
        </li>
      ))}
    </ul>
  );
}

/**
 * /user/statement?from=…&to=…: the person's transactions of a period on a page made to print (the
 * browser's Print leaves out the app's menus and this page's own button), in their time zone.
 */
export function StatementPage({ userId, email }: { userId: string; email: string }) {
  const [params] = useSearchParams();
  const asked = { from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const period: StatementPeriod = periodProblem(asked) ? thisMonth() : asked;
  const statement = useStatement(userId, period);
  const saleLots = useSaleLots(userId, period);
  const timeZone = viewerTimeZone();
  const [start, end] = [period.from, period.to].map((day) => formatDate(`${day}T12:00:00`));

  return (
    <article className="mx-auto grid w-full max-w-4xl gap-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">Statement</h1>
          {statement.data?.holderName && (
            <p className="font-medium" data-testid="statement-holder">
              {statement.data.holderName}
            </p>
          )}
          <p className="text-muted-foreground text-sm">
            {email} · {start} to {end} · times in {timeZone}
          </p>
        </div>
        <Button type="button" variant="outline" className="print:hidden" onClick={() => window.print()}>
          <PrinterIcon aria-hidden />
          Print
        </Button>
      </header>
      {statement.isError && <ErrorMessage>{statement.error.message}</ErrorMessage>}
      {saleLots.isError && <ErrorMessage>{saleLots.error.message}</ErrorMessage>}
      {statement.data && (
        <>
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
            {totals(statement.data).map(({ label, amount }) => (
              <div key={label} className="rounded-lg border p-3">
                <dt className="text-muted-foreground text-xs">{label}</dt>
                <dd className="font-semibold tabular-nums">{formatUsd(amount)}</dd>
              </div>
            ))}
          </dl>
          {statement.data.entries.length === 0 ? (
            <p className="text-muted-foreground">No transactions in this period.</p>
          ) : (
            <Table aria-label="Transactions of the period">
              <TableHeader>
                <TableRow>
                  <TableHead>Date</TableHead>
                  <TableHead>Type</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Cryptocurrency</TableHead>
                  <TableHead align="right">Quantity</TableHead>
                  <TableHead align="right">Price (USD)</TableHead>
                  <TableHead align="right">Amount (USD)</TableHead>
                  <TableHead align="right">Balance (USD)</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {statement.data.entries.map((entry) => (
                  <TableRow key={entry.id} data-testid="statement-row">
                    <TableCell>{formatDateTime(entry.date, undefined, timeZone)}</TableCell>
                    <TableCell>
                      {formatStatus(entry.type)}
                      {entry.type === 'sell' && saleLots.data?.has(entry.id) && (
                        <SaleLots lots={saleLots.data.get(entry.id) ?? []} />
                      )}
                    </TableCell>
                    <TableCell>{formatStatus(entry.status)}</TableCell>
                    <TableCell>{entry.cryptocurrency ? coinName(entry.cryptocurrency) : '—'}</TableCell>
                    <TableCell className={numeric}>
                      {entry.quantity === null ? '—' : formatCryptoAmount(entry.quantity)}
                    </TableCell>
                    <TableCell className={numeric}>
                      {entry.price === null ? '—' : formatUsd(entry.price)}
                    </TableCell>
                    <TableCell className={numeric}>{formatUsd(entry.amount)}</TableCell>
                    <TableCell className={numeric}>{formatUsd(entry.balance)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </>
      )}
    </article>
  );
}
