import { coinName } from '@domain/coins.ts';
import { requestStatuses } from '@domain/statuses.ts';
import { whenAndWhoColumns } from '@/lib/csv';
import { formatUsd, formatUsdPlain } from '@/lib/format';
import { BUY_APPROVED_MESSAGE, BUY_REJECTED_MESSAGE } from '../api/admin-messages';
import { useDecideBuyRequest } from '../api/decide-buy-request';
import { buyRequests, type AdminBuyRequest } from '../api/get-buy-requests';
import { availableColumn, coinColumn, numberColumn } from './list-columns';
import { priceProtectionColumn } from './price-protection-columns';
import { limitText, usdOrDash } from './price-protection-texts';
import { decisionConfirmation, type QueueKind } from './queue-kind';

/** /admin/buy-requests: the live queue; Approve and Reject while a request is pending, each confirmed first. */
export const buyQueue: QueueKind<AdminBuyRequest> = {
  label: 'Buy requests',
  rowTestId: 'admin-buy-request-row',
  emptyMessage: 'No buy requests yet.',
  table: 'buy_requests',
  list: buyRequests,
  csv: {
    name: 'buy-requests',
    columns: [
      ...whenAndWhoColumns(),
      { header: 'Cryptocurrency', value: (request) => request.cryptocurrency },
      { header: 'Amount (USD)', value: (request) => formatUsdPlain(request.amount) },
      { header: 'Available balance (USD)', value: (request) => formatUsdPlain(request.available) },
      { header: 'Status', value: (request) => request.status },
      { header: 'Request ID', value: (request) => request.id },
    ],
  },
  useView: function useBuyQueue({ confirm }) {
    const decision = useDecideBuyRequest();
    return {
      choices: [{ name: 'status', label: 'Status', choices: requestStatuses }],
      columns: [
        coinColumn(),
        numberColumn('Amount (USD)', (request) => formatUsd(request.amount), { sort: 'amount' }),
        availableColumn(),
        numberColumn('Price now (USD)', (request) => usdOrDash(request.price)),
        priceProtectionColumn<AdminBuyRequest>('buy'),
      ],
      decide: (request, choice) =>
        confirm(
          decisionConfirmation(request, choice, 'buy request', {
            details: [
              { term: 'Cryptocurrency', description: coinName(request.cryptocurrency) },
              { term: 'Price now', description: usdOrDash(request.price) },
              { term: 'Limit', description: limitText(request.limitPrice) },
            ],
            amount: request.amount,
            consequence:
              choice === 'approve'
                ? `Approving takes ${formatUsd(request.amount)} from this person's balance for ${coinName(request.cryptocurrency)}. This is final.`
                : 'Rejecting closes the request; no money moves. This is final.',
            successMessage: choice === 'approve' ? BUY_APPROVED_MESSAGE : BUY_REJECTED_MESSAGE,
            run: (reason) => decision.mutateAsync({ requestId: request.id, decision: choice, reason }),
          }),
        ),
      deciding: decision.isPending,
      subject: (request) => `${request.userName || request.email}'s request of ${formatUsd(request.amount)}`,
    };
  },
};
