import { EyeIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { isDecided, requestStatuses } from '@domain/statuses.ts';
import { withdrawMethods } from '@domain/withdrawal.ts';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { StatusBadge } from '@/components/ui/status-badge';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatStatus, formatUsd } from '@/lib/format';
import { WITHDRAW_STATUS_UPDATED_MESSAGE, NO_MATCHES_MESSAGE } from '../api/admin-messages';
import { useStatusTypes } from '../api/get-status-types';
import {
  withdrawRequestsList,
  withdrawRequestsQueries,
  withdrawRequestsQueryKeyRoot,
  type AdminWithdrawRequest,
} from '../api/get-withdraw-requests';
import { useSetWithdrawRequestStatus } from '../api/set-withdraw-request-status';
import { useAdminQueueRealtime } from '../hooks/use-admin-queue-realtime';
import { isNarrowed } from '../api/list-state';
import { useListUrlState } from '../hooks/use-list-url-state';
import { csvAmount, whenAndWhoColumns, type CsvColumn } from '@/lib/csv';
import { ConfirmActionDialog, type PendingAdminAction } from './confirm-action-dialog';
import { DateTimeCell } from './date-time-cell';
import { DecisionButtons } from './decision-buttons';
import { ListPager } from './list-pager';
import { ListTable, SortableHead, STICKY_ACTIONS } from './list-table';
import { ListToolbar } from './list-toolbar';
import { PersonCell } from './person-cell';
import { StatusSelect, type StatusOption } from './status-select';
import { QueryRows } from '@/components/query-state';
import { WithdrawalDetailsDialog } from './withdrawal-details-dialog';

const COLUMNS = 7;
const WITHDRAW_STATUSES: StatusOption[] = requestStatuses.map((status) => ({
  value: status,
  label: formatStatus(status),
}));

const csvColumns: CsvColumn<AdminWithdrawRequest>[] = [
  ...whenAndWhoColumns(),
  { header: 'Amount (USD)', value: (request) => csvAmount(request.amount) },
  { header: 'Available balance (USD)', value: (request) => csvAmount(request.available) },
  { header: 'Method', value: (request) => request.withdrawMethod },
  { header: 'Status', value: (request) => request.status },
  { header: 'Request ID', value: (request) => request.id },
];

/**
 * /admin/withdraw-requests: the live queue; a status is chosen, then applied, and approving or rejecting
 * (final) is confirmed first; Approve/Reject while pending, and the decrypted details.
 */
export function WithdrawRequestsPage() {
  const list = useListUrlState(withdrawRequestsList);
  const { state, setSort, setFilter } = list;
  const [detailsOf, setDetailsOf] = useState<AdminWithdrawRequest>();
  const [action, setAction] = useState<PendingAdminAction>();
  const requests = withdrawRequestsQueries.useList(state);
  const statusTypes = useStatusTypes();
  const statusChange = useSetWithdrawRequestStatus();
  useAdminQueueRealtime('withdraw_requests', withdrawRequestsQueryKeyRoot);
  const statusTypeNames = statusTypes.data?.map((statusType) => statusType.name) ?? [];

  const changeStatus = (request: AdminWithdrawRequest, status: string) => {
    const change = () => statusChange.mutateAsync({ requestId: request.id, status });
    if (!isDecided(status)) {
      change().then(
        () => toast.success(WITHDRAW_STATUS_UPDATED_MESSAGE),
        (error: Error) => toast.error(error.message),
      );
      return;
    }
    const approve = status === 'approved';
    setAction({
      title: approve ? 'Approve withdrawal' : 'Reject withdrawal',
      person: { name: request.userName, email: request.email },
      amount: request.amount,
      available: request.available,
      consequence: approve
        ? `Approving pays out ${formatUsd(request.amount)} by ${request.withdrawMethod} from this person's balance. This is final.`
        : `Rejecting releases the ${formatUsd(request.amount)} this request holds back. This is final.`,
      confirmLabel: approve ? 'Approve' : 'Reject',
      destructive: !approve,
      successMessage: WITHDRAW_STATUS_UPDATED_MESSAGE,
      run: change,
    });
  };

  return (
    <Card>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-6">
        <ListToolbar
          list={list}
          choices={[
            { name: 'status', label: 'Status', choices: [...requestStatuses, ...statusTypeNames] },
            { name: 'method', label: 'Method', choices: withdrawMethods },
          ]}
          personName={requests.data?.rows[0]?.userName}
          csv={{
            list: 'withdraw-requests',
            columns: csvColumns,
            readAll: () => withdrawRequestsQueries.getAll(state),
          }}
        />
        <ListTable label="Withdraw requests" busy={requests.isFetching || statusTypes.isFetching}>
          <TableHeader>
            <TableRow>
              <SortableHead column="date" sort={state.sort} onSort={setSort}>
                Date
              </SortableHead>
              <TableHead>User</TableHead>
              <SortableHead column="amount" sort={state.sort} onSort={setSort} align="right">
                Amount
              </SortableHead>
              <TableHead align="right">Available balance</TableHead>
              <SortableHead column="withdraw_method" sort={state.sort} onSort={setSort}>
                Method
              </SortableHead>
              <SortableHead column="status" sort={state.sort} onSort={setSort}>
                Status
              </SortableHead>
              <TableHead align="right" className={STICKY_ACTIONS}>
                Actions
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            <QueryRows
              columns={COLUMNS}
              queries={[requests, statusTypes]}
              rows={requests.data?.rows}
              emptyMessage={isNarrowed(state) ? NO_MATCHES_MESSAGE : 'No withdraw requests yet.'}
            >
              {(request) => {
                const subject = `${request.userName || request.email}'s withdrawal of ${formatUsd(request.amount)}`;
                return (
                  <TableRow key={request.id} data-testid="admin-withdraw-request-row">
                    <DateTimeCell value={request.date} />
                    <PersonCell
                      name={request.userName}
                      email={request.email}
                      onOnlyThisPerson={() => setFilter('user', request.userId)}
                    />
                    <TableCell className="text-right tabular-nums">{formatUsd(request.amount)}</TableCell>
                    <TableCell className="text-muted-foreground text-right tabular-nums">
                      {formatUsd(request.available)}
                    </TableCell>
                    <TableCell className="capitalize">{request.withdrawMethod}</TableCell>
                    <TableCell>
                      <div className="grid justify-items-start gap-1.5">
                        <StatusBadge status={request.status} palette="request" />
                        <StatusSelect
                          label={`Status of ${subject}`}
                          value={request.status}
                          builtIn={WITHDRAW_STATUSES}
                          statusTypes={statusTypeNames}
                          disabled={statusChange.isPending || isDecided(request.status)}
                          onApply={(status) => changeStatus(request, status)}
                        />
                      </div>
                    </TableCell>
                    <TableCell className={STICKY_ACTIONS}>
                      {/* Stacked on phones, so the column that stays in view leaves room for the rest. */}
                      <div className="flex flex-col items-stretch gap-2 sm:flex-row sm:justify-end">
                        {request.status === 'pending' && (
                          <DecisionButtons
                            subject={subject}
                            disabled={statusChange.isPending}
                            onApprove={() => changeStatus(request, 'approved')}
                            onReject={() => changeStatus(request, 'rejected')}
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
        </ListTable>
        <ListPager label="Withdraw requests" data={requests.data} list={list} />
      </CardContent>
      <WithdrawalDetailsDialog request={detailsOf} onClose={() => setDetailsOf(undefined)} />
      <ConfirmActionDialog action={action} onClose={() => setAction(undefined)} />
    </Card>
  );
}
