import { DownloadIcon, HistoryIcon, RefreshCwIcon, StampIcon } from 'lucide-react';
import { useState } from 'react';
import { reconciliationCsv, type ReconciliationReport } from '@domain/reconciliation-report.ts';
import { QueryState } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { csvFileName, downloadCsv, downloadText } from '@/lib/csv';
import { LatestCheckpoint } from './latest-checkpoint';
import { useCreateCheckpoint, useReconciliation } from '../api/get-reconciliation';
import { CHECKPOINT_FAILED_MESSAGE, RECONCILIATION_FAILED_MESSAGE } from '../api/proof-messages';

/**
 * /admin/ledger: the operator's reconciliation report (the chain verified from genesis or from the latest
 * verified checkpoint, balances and holdings recomputed from the journal, every entry and request checked), as a
 * page, CSV or JSON, and a checkpoint on demand.
 */
export function ReconciliationPage() {
  const [fromCheckpoint, setFromCheckpoint] = useState(false);
  const report = useReconciliation(fromCheckpoint);
  const checkpoint = useCreateCheckpoint();
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void report.refetch()} disabled={report.isFetching}>
          <RefreshCwIcon aria-hidden /> Run again
        </Button>
        <Button
          variant="outline"
          aria-pressed={fromCheckpoint}
          onClick={() => setFromCheckpoint((current) => !current)}
          disabled={report.isFetching}
        >
          <HistoryIcon aria-hidden /> From the latest verified checkpoint
        </Button>
        <Button onClick={() => checkpoint.mutate()} disabled={checkpoint.isPending}>
          <StampIcon aria-hidden /> Make a checkpoint now
        </Button>
      </div>
      {checkpoint.isError && (
        <p role="alert" className="text-destructive text-sm">
          {CHECKPOINT_FAILED_MESSAGE}
        </p>
      )}
      <QueryState
        query={report}
        placeholder={<Skeleton className="h-48 w-full" />}
        errorMessage={RECONCILIATION_FAILED_MESSAGE}
      >
        {(found) => <ReportView report={found} />}
      </QueryState>
      <Card>
        <CardHeader>
          <CardTitle>Published checkpoint</CardTitle>
        </CardHeader>
        <CardContent>
          <LatestCheckpoint />
        </CardContent>
      </Card>
    </div>
  );
}

function ReportView({ report }: { report: ReconciliationReport }) {
  const clean = report.differences.length === 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <span role="status" className={clean ? undefined : 'text-destructive'}>
            {clean
              ? 'The books reconcile: no differences'
              : `${report.differences.length} difference${report.differences.length === 1 ? '' : 's'} found`}
          </span>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-2 text-sm sm:grid-cols-[max-content_minmax(0,1fr)] sm:gap-x-4">
          <dt className="text-muted-foreground">Run at</dt>
          <dd>{new Date(report.generated_at).toLocaleString()}</dd>
          <dt className="text-muted-foreground">Entries verified</dt>
          <dd>
            {report.entries_verified.toLocaleString()},{' '}
            {report.trusted_checkpoint
              ? `after checkpoint #${report.trusted_checkpoint.id}'s head (entry #${report.verified_from})`
              : 'from the first'}
          </dd>
          <dt className="text-muted-foreground">Awaiting seal</dt>
          <dd data-testid="reconciliation-awaiting-seal">
            {report.awaiting_seal.toLocaleString()} {report.awaiting_seal === 1 ? 'entry' : 'entries'}{' '}
            committed during the run: counted in the books, sealed into the chain next
          </dd>
          <dt className="text-muted-foreground">Scope</dt>
          <dd data-testid="reconciliation-scope">{report.scope}</dd>
          <dt className="text-muted-foreground">Chain head</dt>
          <dd className="break-all">
            #{report.head.seq} <span className="font-mono">{report.head.hash}</span>
          </dd>
          <dt className="text-muted-foreground">Latest checkpoint root</dt>
          <dd className="font-mono break-all">
            {report.checkpoint ? `#${report.checkpoint.id} ${report.checkpoint.root}` : 'none yet'}
          </dd>
        </dl>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            onClick={() => downloadCsv(csvFileName('reconciliation'), reconciliationCsv(report))}
          >
            <DownloadIcon aria-hidden /> CSV
          </Button>
          <Button
            variant="outline"
            onClick={() =>
              downloadText(
                csvFileName('reconciliation').replace(/\.csv$/, '.json'),
                `${JSON.stringify(report, null, 2)}\n`,
                'application/json',
              )
            }
          >
            <DownloadIcon aria-hidden /> JSON
          </Button>
        </div>
        {!clean && (
          <Table aria-label="Differences">
            <TableHeader>
              <TableRow>
                <TableHead>Check</TableHead>
                <TableHead>Entry</TableHead>
                <TableHead>Subject</TableHead>
                <TableHead>Journal says</TableHead>
                <TableHead>Found</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {report.differences.map((difference) => (
                <TableRow
                  key={`${difference.check} ${difference.subject} ${difference.entry}`}
                  data-testid="reconciliation-difference"
                >
                  <TableCell>{difference.check}</TableCell>
                  <TableCell>{difference.entry ?? '—'}</TableCell>
                  <TableCell className="break-all">{difference.subject}</TableCell>
                  <TableCell className="font-mono break-all">{difference.expected}</TableCell>
                  <TableCell className="font-mono break-all">{difference.found}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
