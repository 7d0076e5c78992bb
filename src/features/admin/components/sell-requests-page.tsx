import { useState } from 'react';
import { requestStatuses } from '@domain/statuses.ts';
import { Card, CardContent } from '@/components/ui/card';
import { StatusBadge } from '@/components/ui/status-badge';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { coinName } from '@domain/coins.ts';
import { formatCryptoAmount } from '@/lib/format';
import { NO_MATCHES_MESSAGE, SELL_APPROVED_MESSAGE, SELL_REJECTED_MESSAGE } from '../api/admin-messages';
import { useDecideSellRequest } from '../api/decide-sell-request';
import {
  sellRequestsList,
  sellRequestsQueries,
  sellRequestsQueryKeyRoot,
  type AdminSellRequest,
} from '../api/get-sell-requests';
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
import { PriceProtectionCells } from './price-protection-cells';
import { limitText, usdOrDash } from './price-protection-texts';
import { QueryRows } from '@/components/query-state';

const COLUMNS = 11;

const csvColumns: CsvColumn<AdminSellRequest>[] = [
  ...whenAndWhoColumns(),
  { header: 'Cryptocurrency', value: (request) => request.cryptocurrency },
  { header: 'Quantity', value: (request) => String(request.quantity) },
  { header: 'Price (USD)', value: (request) => (request.price === undefined ? '' : String(request.price)) },
  {
    header: 'Value (USD)',
    value: (request) => (request.amount === undefined ? '' : csvAmount(request.amount)),
  },
  { header: 'Status', value: (request) => request.status },
  { header: 'Request ID', value: (request) => request.id },
];

/**
 * /admin/sell-requests: the live queue of sales, each with the price it would fill at now and the USD it
 * would credit; Approve and Reject while pending, each confirmed first, naming the person, coin, quantity and
 * value.
 */
export function SellRequestsPage() {
  const list = useListUrlState(sellRequestsList);
  const { state, setSort, setFilter } = list;
  const requests = sellRequestsQueries.useList(state);
  const decision = useDecideSellRequest();
  const [action, setAction] = useState<PendingAdminAction>();
  useAdminQueueRealtime('sell_requests', sellRequestsQueryKeyRoot);

  const confirmDecision = (request: AdminSellRequest, approve: boolean) => {
    const coin = coinName(request.cryptocurrency);
    setAction({
      title: approve ? 'Approve sell request' : 'Reject sell request',
      person: { name: request.userName, email: request.email },
      details: [
        { term: 'Cryptocurrency', description: coin },
        { term: 'Quantity', description: formatCryptoAmount(request.quantity) },
        { term: 'Price now', description: usdOrDash(request.price) },
        { term: 'Limit', description: limitText(request.limitPrice) },
      ],
      amount: request.amount ?? 0,
      available: request.available,
      consequence: approve
        ? `Approving sells ${formatCryptoAmount(request.quantity)} ${coin} at the current price and adds about ${usdOrDash(request.amount)} to this person's balance. This is final.`
        : 'Rejecting closes the request and frees the coins it reserved; no money moves. This is final.',
      confirmLabel: approve ? 'Approve' : 'Reject',
      destructive: !approve,
      successMessage: approve ? SELL_APPROVED_MESSAGE : SELL_REJECTED_MESSAGE,
      run: () => decision.mutateAsync({ requestId: request.id, decision: approve ? 'approve' : 'reject' }),
    });
  };

  return (
    <Card>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-6">
        <ListToolbar
          list={list}
          choices={[{ name: 'status', label: 'Status', choices: requestStatuses }]}
          personName={requests.data?.rows[0]?.userName}
          csv={{
            list: 'sell-requests',
            columns: csvColumns,
            readAll: () => sellRequestsQueries.getAll(state),
          }}
        />
        <ListTable label="Sell requests" busy={requests.isFetching}>
          <TableHeader>
            <TableRow>
              <SortableHead column="date" sort={state.sort} onSort={setSort}>
                Date
              </SortableHead>
              <TableHead>User</TableHead>
              <SortableHead column="cryptocurrency" sort={state.sort} onSort={setSort}>
                Cryptocurrency
              </SortableHead>
              <SortableHead column="quantity" sort={state.sort} onSort={setSort} align="right">
                Quantity
              </SortableHead>
              <TableHead align="right">Held</TableHead>
              <TableHead align="right">Price (USD)</TableHead>
              <SortableHead column="amount" sort={state.sort} onSort={setSort} align="right">
                Value (USD)
              </SortableHead>
              <TableHead align="right">Limit (USD)</TableHead>
              <TableHead>Expires</TableHead>
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
              queries={[requests]}
              rows={requests.data?.rows}
              emptyMessage={isNarrowed(state) ? NO_MATCHES_MESSAGE : 'No sell requests yet.'}
            >
              {(request) => (
                <TableRow key={request.id} data-testid="admin-sell-request-row">
                  <DateTimeCell value={request.date} />
                  <PersonCell
                    name={request.userName}
                    email={request.email}
                    onOnlyThisPerson={() => setFilter('user', request.userId)}
                  />
                  <TableCell>{coinName(request.cryptocurrency)}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatCryptoAmount(request.quantity)}
                  </TableCell>
                  <TableCell className="text-muted-foreground text-right tabular-nums">
                    {formatCryptoAmount(request.held)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{usdOrDash(request.price)}</TableCell>
                  <TableCell className="text-right tabular-nums">{usdOrDash(request.amount)}</TableCell>
                  <PriceProtectionCells side="sell" request={request} />
                  <TableCell>
                    <StatusBadge status={request.expired ? 'expired' : request.status} palette="request" />
                  </TableCell>
                  <TableCell className={STICKY_ACTIONS}>
                    {request.status === 'pending' && (
                      <DecisionButtons
                        subject={`${request.userName || request.email}'s sale of ${formatCryptoAmount(request.quantity)} ${coinName(request.cryptocurrency)}`}
                        disabled={decision.isPending}
                        expired={request.expired}
                        onApprove={() => confirmDecision(request, true)}
                        onReject={() => confirmDecision(request, false)}
                      />
                    )}
                  </TableCell>
                </TableRow>
              )}
            </QueryRows>
          </TableBody>
        </ListTable>
        <ListPager label="Sell requests" data={requests.data} list={list} />
      </CardContent>
      <ConfirmActionDialog action={action} onClose={() => setAction(undefined)} />
    </Card>
  );
}
