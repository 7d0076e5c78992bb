import { coinName } from '@domain/coins.ts';
import { requestStatuses } from '@domain/statuses.ts';
import { TableCell } from '@/components/ui/table';
import { whenAndWhoColumns } from '@/lib/csv';
import { formatCryptoAmount, formatUsdPlain } from '@/lib/format';
import { SELL_APPROVED_MESSAGE, SELL_REJECTED_MESSAGE } from '../api/admin-messages';
import { useDecideSellRequest } from '../api/decide-sell-request';
import { sellRequests, type AdminSellRequest } from '../api/get-sell-requests';
import { coinColumn, numberColumn } from './list-columns';
import { priceProtectionColumn } from './price-protection-columns';
import { limitText, usdOrDash } from './price-protection-texts';
import { decisionConfirmation, type QueueKind } from './queue-kind';

/**
 * /admin/sell-requests: the live queue of sales, each with the price it would fill at now and the USD it
 * would credit; Approve and Reject while pending, each confirmed first, naming the person, coin, quantity and
 * value.
 */
export const sellQueue: QueueKind<AdminSellRequest> = {
  label: 'Sell requests',
  rowTestId: 'admin-sell-request-row',
  emptyMessage: 'No sell requests yet.',
  table: 'sell_requests',
  list: sellRequests,
  csv: {
    name: 'sell-requests',
    columns: [
      ...whenAndWhoColumns(),
      { header: 'Cryptocurrency', value: (request) => request.cryptocurrency },
      { header: 'Quantity', value: (request) => String(request.quantity) },
      {
        header: 'Price (USD)',
        value: (request) => (request.price === undefined ? '' : String(request.price)),
      },
      {
        header: 'Value (USD)',
        value: (request) => (request.amount === undefined ? '' : formatUsdPlain(request.amount)),
      },
      { header: 'Status', value: (request) => request.status },
      { header: 'Request ID', value: (request) => request.id },
    ],
  },
  useView: function useSellQueue({ confirm }) {
    const decision = useDecideSellRequest();
    return {
      choices: [{ name: 'status', label: 'Status', choices: requestStatuses }],
      columns: [
        coinColumn(),
        {
          header: 'Quantity',
          sort: 'quantity',
          align: 'right',
          // What the person holds under what they sell: one column, so the queue fits 1366 px.
          cell: (request) => (
            <TableCell className="text-right tabular-nums">
              <span className="block">{formatCryptoAmount(request.quantity)}</span>
              <span className="text-muted-foreground block text-xs">
                of {formatCryptoAmount(request.held)} held
              </span>
            </TableCell>
          ),
        },
        numberColumn('Price (USD)', (request) => usdOrDash(request.price)),
        numberColumn('Value (USD)', (request) => usdOrDash(request.amount), { sort: 'amount' }),
        priceProtectionColumn<AdminSellRequest>('sell'),
      ],
      decide: (request, choice) => {
        const coin = coinName(request.cryptocurrency);
        confirm(
          decisionConfirmation(request, choice, 'sell request', {
            details: [
              { term: 'Cryptocurrency', description: coin },
              { term: 'Quantity', description: formatCryptoAmount(request.quantity) },
              { term: 'Price now', description: usdOrDash(request.price) },
              { term: 'Limit', description: limitText(request.limitPrice) },
            ],
            amount: request.amount ?? 0,
            consequence:
              choice === 'approve'
                ? `Approving sells ${formatCryptoAmount(request.quantity)} ${coin} at the current price and adds about ${usdOrDash(request.amount)} to this person's balance. This is final.`
                : 'Rejecting closes the request and frees the coins it reserved; no money moves. This is final.',
            successMessage: choice === 'approve' ? SELL_APPROVED_MESSAGE : SELL_REJECTED_MESSAGE,
            run: (reason) => decision.mutateAsync({ requestId: request.id, decision: choice, reason }),
          }),
        );
      },
      deciding: decision.isPending,
      subject: (request) =>
        `${request.userName || request.email}'s sale of ${formatCryptoAmount(request.quantity)} ${coinName(request.cryptocurrency)}`,
    };
  },
};
