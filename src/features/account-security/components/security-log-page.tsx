import { useState } from 'react';
import { ArrowLeftIcon } from 'lucide-react';
import { Link } from 'react-router-dom';
import { verifySecurityLog, type SecurityLogEntry } from '@domain/security-log.ts';
import type { ChainBreak } from '@domain/hash-chain.ts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { DateTime } from '@/components/date-time';
import { QueryRows } from '@/components/query-state';
import { useSession } from '@/lib/auth';
import { downloadCsv } from '@/lib/csv';
import { liveTopics } from '@/lib/realtime';
import {
  SECURITY_LOG_CHECK_FAILED_MESSAGE,
  SECURITY_LOG_EMPTY_MESSAGE,
  SECURITY_LOG_LOAD_FAILED_MESSAGE,
} from '../api/account-security-messages';
import { getWholeSecurityLog, SECURITY_LOG_PAGE_ROWS, useSecurityLogOwner } from '../api/get-security-log';
import { useLiveSecurityLogPage } from '../hooks/use-live-security-log';
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
 * A person's security log, newest first and live, a screen of entries at a time (keyset paging: each older
 * screen starts below the oldest entry of the one before). Checking the chain and the CSV read the whole log.
 */
function SecurityLogCard({
  personId,
  topic,
  description,
}: {
  personId: string;
  topic: string;
  description: string;
}) {
  // The `before` of each screen opened, newest screen first: null is the newest entries.
  const [screens, setScreens] = useState<(number | null)[]>([null]);
  const before = screens.at(-1) ?? null;
  const page = useLiveSecurityLogPage(personId, topic, before);
  const [check, setCheck] = useState<ChainCheck | null>(null);
  const [working, setWorking] = useState<'checking' | 'downloading' | null>(null);
  const entries = page.data;
  const oldestShown = entries?.at(-1)?.seq;
  const empty = before === null && entries?.length === 0;

  const checkChain = async () => {
    setWorking('checking');
    try {
      const whole = await getWholeSecurityLog(personId);
      setCheck({ checkedThrough: whole.length, breaks: await verifySecurityLog(whole) });
    } catch {
      setCheck({ failed: true });
    } finally {
      setWorking(null);
    }
  };

  const downloadAll = async () => {
    setWorking('downloading');
    try {
      downloadCsv('security-log.csv', securityLogCsv(await getWholeSecurityLog(personId)));
    } catch {
      setCheck({ failed: true });
    } finally {
      setWorking(null);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardDescription>{description}</CardDescription>
        <div className="flex flex-wrap gap-2 pt-2">
          <Button
            type="button"
            variant="outline"
            disabled={!entries || empty || working !== null}
            onClick={() => void checkChain()}
          >
            {working === 'checking' ? 'Checking…' : 'Check the chain'}
          </Button>
          <Button
            type="button"
            variant="outline"
            disabled={!entries || empty || working !== null}
            onClick={() => void downloadAll()}
          >
            {working === 'downloading' ? 'Preparing…' : 'Download CSV'}
          </Button>
        </div>
        <div role="status">{check && <ChainCheckResult check={check} />}</div>
      </CardHeader>
      <CardContent className="grid gap-4">
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
                page.error ? { error: new Error(SECURITY_LOG_LOAD_FAILED_MESSAGE), isPending: false } : page,
              ]}
              rows={entries}
              emptyMessage={SECURITY_LOG_EMPTY_MESSAGE}
              placeholderRows={5}
            >
              {(entry) => <EntryRow key={entry.seq} entry={entry} />}
            </QueryRows>
          </TableBody>
        </Table>
        {(screens.length > 1 || (oldestShown ?? 1) > 1) && (
          <nav aria-label="Security log pages" className="flex flex-wrap items-center gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={screens.length === 1}
              onClick={() => setScreens((opened) => opened.slice(0, -1))}
            >
              Newer entries
            </Button>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={oldestShown === undefined || oldestShown <= 1 || page.isPlaceholderData}
              onClick={() => oldestShown !== undefined && setScreens((opened) => [...opened, oldestShown])}
            >
              Older entries
            </Button>
            {entries && entries.length > 0 && (
              <span className="text-muted-foreground text-sm tabular-nums">
                Entries {entries.at(-1)?.seq} to {entries[0]?.seq}
              </span>
            )}
          </nav>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * /user/security-log: every sign-in and security change, newest first and live; the person checks the hash
 * chain in their browser and downloads it as CSV.
 */
export function SecurityLogPage() {
  const { user } = useSession();
  const personId = user?.id ?? '';
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Security log</h1>
      <SecurityLogCard
        personId={personId}
        topic={liveTopics.account(personId)}
        description={`Every sign-in and every change to your account’s security, newest first, ${SECURITY_LOG_PAGE_ROWS} to a page. Each entry carries the hash of the one before it, so an entry changed or removed afterwards shows when you check the chain — here, in your browser, or from the CSV file.`}
      />
    </div>
  );
}

/**
 * /admin/users/<id>/security-log: one person's log as they see it, for an admin at aal2 (a dispute, a
 * support case), live on admin:queues; reached from that person's row on the Users page.
 */
export function PersonSecurityLog({ personId }: { personId: string }) {
  const owner = useSecurityLogOwner(personId);
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <Link to="/admin/users" className="text-sm underline-offset-4 hover:underline">
          <ArrowLeftIcon aria-hidden className="mr-1 inline size-4" />
          Users
        </Link>
        <p className="font-medium" data-testid="security-log-owner">
          {owner.data
            ? `${owner.data.full_name || '—'} · ${owner.data.email}`
            : owner.isPending
              ? '…'
              : personId}
        </p>
      </div>
      <SecurityLogCard
        personId={personId}
        topic={liveTopics.adminQueues}
        description={`This person’s sign-ins and security changes, newest first, ${SECURITY_LOG_PAGE_ROWS} to a page. Checking the chain recomputes every entry’s hash in this browser.`}
      />
    </div>
  );
}
