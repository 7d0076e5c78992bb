import { EyeIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { StatusBadge } from '@/components/ui/status-badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatUsd } from '@/lib/format';
import { WITHDRAW_STATUS_UPDATED_MESSAGE } from '../api/admin-messages';
import { useStatusTypes } from '../api/get-status-types';
import {
  useWithdrawRequests,
  withdrawRequestsQueryKeyRoot,
  type AdminWithdrawRequest,
} from '../api/get-withdraw-requests';
import { useSetWithdrawRequestStatus } from '../api/set-withdraw-request-status';
import { useAdminQueueRealtime } from '../hooks/use-admin-queue-realtime';
import { DecisionButtons } from './decision-buttons';
import { DateTimeCell } from './date-time-cell';
import { PersonCell } from './person-cell';
import { Pager } from './pager';
import { StatusSelect, type StatusOption } from './status-select';
import { QueryRows } from './table-states';
import { WithdrawalDetailsDialog } from './withdrawal-details-dialog';

const COLUMNS = 6;
const WITHDRAW_STATUSES: StatusOption[] = [
  { value: 'pending', label: 'pending' },
  { value: 'approved', label: 'approved' },
  { value: 'rejected', label: 'rejected' },
];
/** Money has moved (or been released) once a request reaches these; the database refuses any change after. */
const FINAL_STATUSES = new Set(['approved', 'rejected']);

/** /admin/withdraw-requests: the live queue with a status dropdown, Approve/Reject while pending, and details. */
export function WithdrawRequestsPage() {
  const [page, setPage] = useState(0);
  const [detailsOf, setDetailsOf] = useState<AdminWithdrawRequest>();
  const requests = useWithdrawRequests(page);
  const statusTypes = useStatusTypes();
  const statusChange = useSetWithdrawRequestStatus();
  useAdminQueueRealtime('withdraw_requests', withdrawRequestsQueryKeyRoot);
  const statusTypeNames = statusTypes.data?.map((statusType) => statusType.name) ?? [];

  const changeStatus = (requestId: string, status: string) =>
    statusChange.mutate(
      { requestId, status },
      {
        onSuccess: () => toast.success(WITHDRAW_STATUS_UPDATED_MESSAGE),
        onError: (error) => toast.error(error.message),
      },
    );

  return (
    <Card>
      <CardContent className="grid gap-4 pt-6">
        <Table aria-busy={requests.isFetching || statusTypes.isFetching}>
          <TableHeader>
            <TableRow>
              <TableHead>Date</TableHead>
              <TableHead>User</TableHead>
              <TableHead align="right">Amount</TableHead>
              <TableHead>Method</TableHead>
              <TableHead>Status</TableHead>
              <TableHead align="right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            <QueryRows
              columns={COLUMNS}
              queries={[requests, statusTypes]}
              rows={requests.data?.rows}
              emptyMessage="No withdraw requests yet."
            >
              {(request) => {
                const subject = `${request.userName || request.email}'s withdrawal of ${formatUsd(request.amount)}`;
                return (
                  <TableRow key={request.id} data-testid="admin-withdraw-request-row">
                    <DateTimeCell value={request.date} />
                    <PersonCell name={request.userName} email={request.email} />
                    <TableCell className="text-right tabular-nums">{formatUsd(request.amount)}</TableCell>
                    <TableCell className="capitalize">{request.withdrawMethod}</TableCell>
                    <TableCell>
                      <div className="grid justify-items-start gap-1.5">
                        <StatusBadge status={request.status} palette="request" />
                        <StatusSelect
                          label={`Status of ${subject}`}
                          value={request.status}
                          builtIn={WITHDRAW_STATUSES}
                          statusTypes={statusTypeNames}
                          disabled={statusChange.isPending || FINAL_STATUSES.has(request.status)}
                          onChange={(status) => changeStatus(request.id, status)}
                        />
                      </div>
                    </TableCell>
                    <TableCell>
                      <div className="flex justify-end gap-2">
                        {request.status === 'pending' && (
                          <DecisionButtons
                            subject={subject}
                            disabled={statusChange.isPending}
                            onApprove={() => changeStatus(request.id, 'approved')}
                            onReject={() => changeStatus(request.id, 'rejected')}
                          />
                        )}
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={`Details of ${subject}`}
                          onClick={() => setDetailsOf(request)}
                        >
                          <EyeIcon aria-hidden />
                          Details
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                );
              }}
            </QueryRows>
          </TableBody>
        </Table>
        {requests.data && (
          <Pager label="Withdraw requests" page={page} total={requests.data.total} onPageChange={setPage} />
        )}
      </CardContent>
      <WithdrawalDetailsDialog request={detailsOf} onClose={() => setDetailsOf(undefined)} />
    </Card>
  );
}
