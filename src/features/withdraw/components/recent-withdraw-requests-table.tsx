import { withdrawMethodLabels } from '@domain/withdrawal.ts';
import { DateTime } from '@/components/date-time';
import { StatusBadge } from '@/components/ui/status-badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatUsd } from '@/lib/format';
import type { WithdrawRequest } from '../types';

/** The latest requests, newest first, as the query orders them. */
export function RecentWithdrawRequestsTable({ requests }: { requests: readonly WithdrawRequest[] }) {
  if (requests.length === 0) {
    return <p className="text-muted-foreground py-6 text-center">No recent withdraw requests.</p>;
  }
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Date</TableHead>
          <TableHead align="right">Amount</TableHead>
          <TableHead>Method</TableHead>
          <TableHead>Status</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {requests.map((request) => (
          <TableRow key={request.id} data-testid="withdraw-request-row">
            <TableCell>
              <DateTime value={request.date} />
            </TableCell>
            <TableCell className="text-right tabular-nums">{formatUsd(request.amount)}</TableCell>
            <TableCell>{withdrawMethodLabels[request.withdrawMethod]}</TableCell>
            <TableCell>
              <StatusBadge status={request.status} palette="request" />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
