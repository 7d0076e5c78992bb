import { withdrawMethodLabels } from '@domain/withdrawal.ts';
import { CancelRequestButton } from '@/components/cancel-request-button';
import { DateTime } from '@/components/date-time';
import { RequestDetails } from '@/components/request-details';
import { StatusBadge } from '@/components/ui/status-badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatUsd } from '@/lib/format';
import { recentWithdrawRequestsQueryKey } from '../api/get-recent-withdraw-requests';
import type { WithdrawRequest } from '../types';

/**
 * The latest requests, newest first, as the query orders them; a pending one offers Cancel to its owner
 * (`userId`), a rejected one says why.
 */
export function RecentWithdrawRequestsTable({
  requests,
  userId,
}: {
  requests: readonly WithdrawRequest[];
  userId?: string;
}) {
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
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
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
              <RequestDetails status={request.status} rejectionReason={request.rejectionReason} />
            </TableCell>
            <TableCell className="text-right">
              {userId && request.status === 'pending' && (
                <CancelRequestButton
                  kind="withdraw"
                  requestId={request.id}
                  userId={userId}
                  listKey={recentWithdrawRequestsQueryKey(userId)}
                  summary={`your withdrawal of ${formatUsd(request.amount)}`}
                />
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
