import { DownloadIcon, PrinterIcon } from 'lucide-react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button, buttonVariants } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ErrorMessage } from '@/components/error-message';
import { downloadCsv } from '@/lib/csv';
import { coinName } from '@domain/coins.ts';
import { useRealisedGains } from '../api/get-realised-gains';
import { methodForYear, useTaxSettings } from '../api/get-tax-settings';
import { quantityTo8, toCents } from '@/lib/decimal';
import { formatUsd } from '@/lib/format';
import { gainsCsv, gainsFileName, gainTotals } from '../utils/gains-csv';
import { methodNames } from './method-names';
import { taxYearIn } from '../utils/tax-year';

const numeric = 'text-right tabular-nums';
// Exact cents from the database, shown by the app's one money formatter (below 2^53 cents a number is exact).
const usd = (cents: bigint) => formatUsd(Number(cents) / 100);

/** The year asked for in the address, or this year (in UTC until the settings have loaded). */
function askedYear(param: string | null): number {
  const year = Number(param);
  return Number.isInteger(year) && year >= 2000 && year <= 9999 ? year : new Date().getUTCFullYear();
}

/**
 * /user/gains?year=…: the realised gains of a tax year, one line per lot each sale consumed, with totals, as a
 * page made to print and as CSV. Figures come as the database computed them; the page only adds cents.
 */
export function GainsReportPage({ userId, email }: { userId: string; email: string }) {
  const [params] = useSearchParams();
  const taxYear = askedYear(params.get('year'));
  const settings = useTaxSettings(userId);
  const gains = useRealisedGains(userId, taxYear);
  const totals = gains.data ? gainTotals(gains.data) : undefined;
  const timeZone = settings.data?.timeZone ?? 'UTC';
  const thisYear = taxYearIn(timeZone);

  return (
    <article className="mx-auto grid w-full max-w-5xl gap-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">Gains report {taxYear}</h1>
          <p className="text-muted-foreground text-sm">
            {email} · tax year {taxYear} in {timeZone}
            {settings.data && ` · ${methodNames[methodForYear(settings.data.elections, taxYear)]}`}
          </p>
        </div>
        <nav className="flex flex-wrap gap-2 print:hidden" aria-label="Report">
          <Link to={`/user/gains?year=${taxYear - 1}`} className={buttonVariants({ variant: 'outline' })}>
            {taxYear - 1}
          </Link>
          {taxYear < thisYear && (
            <Link to={`/user/gains?year=${taxYear + 1}`} className={buttonVariants({ variant: 'outline' })}>
              {taxYear + 1}
            </Link>
          )}
          <Button
            type="button"
            variant="outline"
            disabled={!gains.data}
            onClick={() => gains.data && downloadCsv(gainsFileName(taxYear), gainsCsv(gains.data))}
          >
            <DownloadIcon aria-hidden />
            Download CSV
          </Button>
          <Button type="button" variant="outline" onClick={() => window.print()}>
            <PrinterIcon aria-hidden />
            Print
          </Button>
        </nav>
      </header>
      {gains.isError && <ErrorMessage>{gains.error.message}</ErrorMessage>}
      {totals && (
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-5" aria-label="Totals">
          {[
            ['Proceeds', totals.proceeds],
            ['Cost basis', totals.costBasis],
            ['Gain or loss', totals.gain],
            ['Short-term', totals.shortTermGain],
            ['Long-term', totals.longTermGain],
          ].map(([label, cents]) => (
            <div key={String(label)} className="rounded-lg border p-3">
              <dt className="text-muted-foreground text-xs">{label}</dt>
              <dd className="font-semibold tabular-nums">{usd(BigInt(cents ?? 0))}</dd>
            </div>
          ))}
        </dl>
      )}
      {gains.data?.length === 0 && <p className="text-muted-foreground">No sales in {taxYear}.</p>}
      {gains.data && gains.data.length > 0 && (
        <Table aria-label={`Disposals of ${taxYear}`}>
          <TableHeader>
            <TableRow>
              <TableHead>Coin</TableHead>
              <TableHead>Acquired</TableHead>
              <TableHead>Sold</TableHead>
              <TableHead align="right">Quantity</TableHead>
              <TableHead align="right">Proceeds</TableHead>
              <TableHead align="right">Cost basis</TableHead>
              <TableHead align="right">Gain or loss</TableHead>
              <TableHead>Term</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {gains.data.map((line) => (
              <TableRow key={`${line.saleId}-${line.lotId ?? 'none'}`} data-testid="gain-line">
                <TableCell>{coinName(line.cryptocurrency)}</TableCell>
                <TableCell>{line.dateAcquired ?? '—'}</TableCell>
                <TableCell>{line.dateSold}</TableCell>
                <TableCell className={numeric}>{quantityTo8(line.quantity)}</TableCell>
                <TableCell className={numeric}>{usd(toCents(line.proceeds))}</TableCell>
                <TableCell className={numeric}>{usd(toCents(line.costBasis))}</TableCell>
                <TableCell className={numeric}>{usd(toCents(line.gain))}</TableCell>
                <TableCell>{line.term === 'long' ? 'Long' : line.term === 'short' ? 'Short' : '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </article>
  );
}
