import { withdrawMethodLabels } from '@domain/withdrawal.ts';
import { CancelRequestButton } from '@/components/cancel-request-button';
import { RequestDetails } from '@/components/request-details';
import { StatusBadge } from '@/components/ui/status-badge';
import { TableCell, TableHead } from '@/components/ui/table';
import { RequestRow, RequestTable } from '@/components/request-table';
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
  return (
    <RequestTable
      requests={requests}
      none="No recent withdraw requests."
      headings={
        <>
          <TableHead align="right">Amount</TableHead>
          <TableHead>Method</TableHead>
        </>
      }
    >
      {(request) => (
        <RequestRow
          key={request.id}
          testId="withdraw-request-row"
          date={request.date}
          status={
            <>
              <StatusBadge status={request.status} palette="request" />
              <RequestDetails status={request.status} rejectionReason={request.rejectionReason} />
            </>
          }
          action={
            userId &&
            request.status === 'pending' && (
              <CancelRequestButton
                kind="withdraw"
                requestId={request.id}
                userId={userId}
                listKey={recentWithdrawRequestsQueryKey(userId)}
                summary={`your withdrawal of ${formatUsd(request.amount)}`}
              />
            )
          }
        >
          <TableCell className="text-right tabular-nums">{formatUsd(request.amount)}</TableCell>
          <TableCell>{withdrawMethodLabels[request.withdrawMethod]}</TableCell>
        </RequestRow>
      )}
    </RequestTable>
  );
}
