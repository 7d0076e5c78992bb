import { useState } from 'react';
import { toast } from 'sonner';
import { Card, CardContent } from '@/components/ui/card';
import { StatusBadge } from '@/components/ui/status-badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatUsd } from '@/lib/format';
import { BUY_APPROVED_MESSAGE, BUY_REJECTED_MESSAGE } from '../api/admin-messages';
import { useDecideBuyRequest, type BuyDecision } from '../api/decide-buy-request';
import { buyRequestsQueryKeyRoot, useBuyRequests } from '../api/get-buy-requests';
import { useAdminQueueRealtime } from '../hooks/use-admin-queue-realtime';
import { DecisionButtons } from './decision-buttons';
import { DateTimeCell } from './date-time-cell';
import { PersonCell } from './person-cell';
import { Pager } from './pager';
import { QueryRows } from './table-states';

const COLUMNS = 6;

/** /admin/buy-requests: the live queue, newest first; Approve and Reject while a request is pending. */
export function BuyRequestsPage() {
  const [page, setPage] = useState(0);
  const requests = useBuyRequests(page);
  const decision = useDecideBuyRequest();
  useAdminQueueRealtime('buy_requests', buyRequestsQueryKeyRoot);

  const decide = (change: BuyDecision) =>
    decision.mutate(change, {
      onSuccess: () =>
        toast.success(change.decision === 'approve' ? BUY_APPROVED_MESSAGE : BUY_REJECTED_MESSAGE),
      onError: (error) => toast.error(error.message),
    });

  return (
    <Card>
      <CardContent className="grid gap-4 pt-6">
        <Table aria-busy={requests.isFetching}>
          <TableHeader>
            <TableRow>
              <TableHead>Date</TableHead>
              <TableHead>User</TableHead>
              <TableHead>Cryptocurrency</TableHead>
              <TableHead align="right">Amount (USD)</TableHead>
              <TableHead>Status</TableHead>
              <TableHead align="right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            <QueryRows
              columns={COLUMNS}
              queries={[requests]}
              rows={requests.data?.rows}
              emptyMessage="No buy requests yet."
            >
              {(request) => (
                <TableRow key={request.id} data-testid="admin-buy-request-row">
                  <DateTimeCell value={request.date} />
                  <PersonCell name={request.userName} email={request.email} />
                  <TableCell className="capitalize">{request.cryptocurrency}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatUsd(request.amount)}</TableCell>
                  <TableCell>
                    <StatusBadge status={request.status} palette="request" />
                  </TableCell>
                  <TableCell>
                    {request.status === 'pending' && (
                      <DecisionButtons
                        subject={`${request.userName || request.email}'s request of ${formatUsd(request.amount)}`}
                        disabled={decision.isPending}
                        onApprove={() => decide({ requestId: request.id, decision: 'approve' })}
                        onReject={() => decide({ requestId: request.id, decision: 'reject' })}
                      />
                    )}
                  </TableCell>
                </TableRow>
              )}
            </QueryRows>
          </TableBody>
        </Table>
        {requests.data && (
          <Pager label="Buy requests" page={page} total={requests.data.total} onPageChange={setPage} />
        )}
      </CardContent>
    </Card>
  );
}
