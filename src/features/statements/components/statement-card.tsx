import { DownloadIcon, PrinterIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { downloadCsv } from '@/lib/csv';
import { getStatement } from '../api/get-statement';
import {
  statementColumnNames,
  statementCsv,
  statementFileName,
  viewerTimeZone,
} from '../utils/statement-csv';
import { periodProblem, thisMonth } from './statement-period';
import { ErrorMessage } from '@/components/error-message';
import { STATEMENT_FAILED_MESSAGE } from '../api/statements-messages';

/**
 * Statements: the person's transactions of a period as a CSV file or a printable page. The card says
 * which columns the file has and which time zone its times are in.
 */
export function StatementCard({ userId }: { userId: string }) {
  const [period, setPeriod] = useState(thisMonth);
  const [downloading, setDownloading] = useState(false);
  const [failed, setFailed] = useState(false);
  const problem = periodProblem(period);
  const timeZone = viewerTimeZone();

  const download = async () => {
    setDownloading(true);
    setFailed(false);
    try {
      downloadCsv(
        statementFileName(period),
        statementCsv((await getStatement(userId, period)).entries, timeZone),
      );
    } catch {
      setFailed(true);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Statements</CardTitle>
        <CardDescription>
          Your transactions of a period, as a CSV file or a page to print. Times are in your time zone,{' '}
          {timeZone}. The CSV file&apos;s columns: {statementColumnNames.join(', ')}; amounts are plain
          numbers in USD.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap items-end gap-4">
          <FormField label="From" className="w-full min-[480px]:w-44">
            {(control) => (
              <Input
                {...control}
                type="date"
                value={period.from}
                onChange={(event) => setPeriod((current) => ({ ...current, from: event.target.value }))}
              />
            )}
          </FormField>
          <FormField label="To" className="w-full min-[480px]:w-44">
            {(control) => (
              <Input
                {...control}
                type="date"
                value={period.to}
                min={period.from}
                onChange={(event) => setPeriod((current) => ({ ...current, to: event.target.value }))}
              />
            )}
          </FormField>
          <Button type="button" disabled={Boolean(problem) || downloading} onClick={() => void download()}>
            <DownloadIcon aria-hidden />
            {downloading ? 'Downloading…' : 'Download CSV'}
          </Button>
          <Link
            to={`/user/statement?from=${period.from}&to=${period.to}`}
            aria-disabled={Boolean(problem)}
            className={buttonVariants({
              variant: 'outline',
              className: problem && 'pointer-events-none opacity-50',
            })}
          >
            <PrinterIcon aria-hidden />
            Printable statement
          </Link>
        </div>
        {(problem || failed) && <ErrorMessage>{problem ?? STATEMENT_FAILED_MESSAGE}</ErrorMessage>}
      </CardContent>
    </Card>
  );
}
