import { EyeIcon } from 'lucide-react';
import { useState } from 'react';
import { isDecided, requestStatuses } from '@domain/statuses.ts';
import { withdrawMethods } from '@domain/withdrawal.ts';
import { Button } from '@/components/ui/button';
import { TableCell } from '@/components/ui/table';
import { whenAndWhoColumns } from '@/lib/csv';
import { useSession } from '@/lib/auth';
import { formatUsd, formatUsdPlain } from '@/lib/format';
import { WITHDRAW_STATUS_UPDATED_MESSAGE } from '../api/admin-messages';
import { withdrawRequests, type AdminWithdrawRequest } from '../api/get-withdraw-requests';
import { useSetWithdrawRequestStatus } from '../api/set-withdraw-request-status';
import { availableColumn, numberColumn } from './list-columns';
import { decisionConfirmation, queueRowState, type QueueKind } from './queue-kind';
import { statusOptions, useStatusChanges } from './status-changes';
import { WithdrawalDetailsDialog } from './withdrawal-details-dialog';

const WITHDRAW_STATUSES = statusOptions(requestStatuses);

const subject = (request: AdminWithdrawRequest) =>
  `${request.userName || request.email}'s withdrawal of ${formatUsd(request.amount)}`;

/**
 * /admin/withdraw-requests: the live queue; a status is chosen, then applied, and approving or rejecting
 * (final) is confirmed first; Approve/Reject while pending, and the decrypted details.
 */
export const withdrawQueue: QueueKind<AdminWithdrawRequest> = {
  label: 'Withdraw requests',
  rowTestId: 'admin-withdraw-request-row',
  emptyMessage: 'No withdraw requests yet.',
  table: 'withdraw_requests',
  list: withdrawRequests,
  csv: {
    name: 'withdraw-requests',
    columns: [
      ...whenAndWhoColumns(),
      { header: 'Amount (USD)', value: (request) => formatUsdPlain(request.amount) },
      { header: 'Available balance (USD)', value: (request) => formatUsdPlain(request.available) },
      { header: 'Method', value: (request) => request.withdrawMethod },
      { header: 'Status', value: (request) => request.status },
      { header: 'Request ID', value: (request) => request.id },
    ],
  },
  useView: function useWithdrawQueue({ confirm }) {
    const [detailsOf, setDetailsOf] = useState<AdminWithdrawRequest>();
    const statusChange = useSetWithdrawRequestStatus();
    const { user } = useSession();
    const statuses = useStatusChanges<AdminWithdrawRequest>({
      palette: 'request',
      builtIn: WITHDRAW_STATUSES,
      label: (request) => `Status of ${subject(request)}`,
      fixed: (request) => isDecided(request.status),
      // Held by a lock or a hold, or approved by this admin already: no Approve in the select either.
      withheld: (request) =>
        ['open', 'decided'].includes(queueRowState(request, user?.id)) ? [] : ['approved'],
      busy: statusChange.isPending,
      change: (request, status, reason) =>
        statusChange.mutateAsync({ requestId: request.id, status, reason }),
      confirmation: (request, status, run) =>
        isDecided(status)
          ? decisionConfirmation(request, status === 'approved' ? 'approve' : 'reject', 'withdrawal', {
              asksReason: status === 'rejected',
              amount: request.amount,
              consequence:
                status === 'approved'
                  ? `Approving pays out ${formatUsd(request.amount)} by ${request.withdrawMethod} from this person's balance. This is final.`
                  : `Rejecting releases the ${formatUsd(request.amount)} this request holds back. This is final.`,
              successMessage: WITHDRAW_STATUS_UPDATED_MESSAGE,
              run,
            })
          : undefined,
      successMessage: WITHDRAW_STATUS_UPDATED_MESSAGE,
      confirm,
    });
    return {
      choices: [
        {
          name: 'status',
          label: 'Status',
          choices: [...new Set([...requestStatuses, ...statuses.statusTypeNames])],
        },
        { name: 'method', label: 'Method', choices: withdrawMethods },
      ],
      columns: [
        numberColumn('Amount', (request) => formatUsd(request.amount), { sort: 'amount' }),
        availableColumn(),
        {
          header: 'Method',
          sort: 'withdraw_method',
          cell: (request) => <TableCell className="capitalize">{request.withdrawMethod}</TableCell>,
        },
      ],
      statusColumn: statuses.column,
      decide: (request, choice) => statuses.apply(request, choice === 'approve' ? 'approved' : 'rejected'),
      deciding: statusChange.isPending,
      subject,
      moreActions: (request) => (
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Details of ${subject(request)}`}
          onClick={() => setDetailsOf(request)}
        >
          <EyeIcon aria-hidden />
          Details
        </Button>
      ),
      alsoWaitFor: [statuses.statusTypes],
      dialogs: <WithdrawalDetailsDialog request={detailsOf} onClose={() => setDetailsOf(undefined)} />,
    };
  },
};
