import { useState } from 'react';
import { verifySecurityLog, type SecurityLogEntry } from '@domain/security-log.ts';
import type { ChainBreak } from '@domain/hash-chain.ts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { DateTime } from '@/components/date-time';
import { QueryRows } from '@/components/query-state';
import { downloadCsv } from '@/lib/csv';
import {
  SECURITY_LOG_CHECK_FAILED_MESSAGE,
  SECURITY_LOG_EMPTY_MESSAGE,
  SECURITY_LOG_LOAD_FAILED_MESSAGE,
} from '../api/account-security-messages';
import { useLiveSecurityLog } from '../hooks/use-live-security-log';
import { deviceName } from '../utils/device-name';
import { securityLogCsv } from '../utils/security-log-csv';

type ChainCheck = { checkedThrough: number; breaks: ChainBreak[] } | { failed: true };

function ChainCheckResult({ check }: { check: ChainCheck }) {
  if ('failed' in check)
    return <p className="text-destructive text-sm">{SECURITY_LOG_CHECK_FAILED_MESSAGE}</p>;
  if (check.breaks.length === 0)
    return (
      <p className="text-sm">
        The chain is intact: entries 1 to {check.checkedThrough} are as they were written.
      </p>
    );
  return (
    <div className="text-destructive grid gap-1 text-sm">
      <p className="font-medium">The chain is broken: the log was changed after it was written.</p>
      <ul className="list-disc pl-5">
        {check.breaks.map((found) => (
          <li key={`${found.seq}-${found.problem}`}>
            Entry {found.seq}: {found.problem}
          </li>
        ))}
      </ul>
    </div>
  );
}

function EntryRow({ entry }: { entry: SecurityLogEntry }) {
  const where = [entry.user_agent === null ? null : deviceName(entry.user_agent), entry.ip]
    .filter(Boolean)
    .join(' · ');
  return (
    <TableRow data-testid="security-log-entry">
      <TableCell className="text-muted-foreground tabular-nums">{entry.seq}</TableCell>
      <TableCell>
        <DateTime value={entry.recorded_at} />
      </TableCell>
      <TableCell className="whitespace-normal">
        <p>{entry.detail}</p>
        {where && <p className="text-muted-foreground text-xs break-all">{where}</p>}
      </TableCell>
    </TableRow>
  );
}

/**
 * /user/security-log: every sign-in and security change, newest first and live; the person checks the hash
 * chain in their browser and downloads it as CSV.
 */
export function SecurityLogPage() {
  const log = useLiveSecurityLog();
  const [check, setCheck] = useState<ChainCheck | null>(null);
  const [checking, setChecking] = useState(false);
  const entries = log.data;

  const checkChain = async () => {
    if (!entries) return;
    setChecking(true);
    try {
      setCheck({ checkedThrough: entries.length, breaks: await verifySecurityLog(entries) });
    } catch {
      setCheck({ failed: true });
    } finally {
      setChecking(false);
    }
  };

  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Security log</h1>
      <Card>
        <CardHeader>
          <CardDescription>
            Every sign-in and every change to your account’s security, newest first. Each entry carries the
            hash of the one before it, so an entry changed or removed afterwards shows when you check the
            chain — here, in your browser, or from the CSV file.
          </CardDescription>
          <div className="flex flex-wrap gap-2 pt-2">
            <Button
              type="button"
              variant="outline"
              disabled={!entries || entries.length === 0 || checking}
              onClick={() => void checkChain()}
            >
              {checking ? 'Checking…' : 'Check the chain'}
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={!entries || entries.length === 0}
              onClick={() => entries && downloadCsv('security-log.csv', securityLogCsv(entries))}
            >
              Download CSV
            </Button>
          </div>
          <div role="status">{check && <ChainCheckResult check={check} />}</div>
        </CardHeader>
        <CardContent>
          <Table aria-label="Security log">
            <TableHeader>
              <TableRow>
                <TableHead>#</TableHead>
                <TableHead>When</TableHead>
                <TableHead>What happened</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              <QueryRows
                columns={3}
                queries={[
                  log.error ? { error: new Error(SECURITY_LOG_LOAD_FAILED_MESSAGE), isPending: false } : log,
                ]}
                rows={entries?.toReversed()}
                emptyMessage={SECURITY_LOG_EMPTY_MESSAGE}
                placeholderRows={5}
              >
                {(entry) => <EntryRow key={entry.seq} entry={entry} />}
              </QueryRows>
            </TableBody>
          </Table>
        </CardContent>
      </Card>
    </div>
  );
}
