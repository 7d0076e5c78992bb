import { useState } from 'react';
import { requestStatuses } from '@domain/statuses.ts';
import { Card, CardContent } from '@/components/ui/card';
import { StatusBadge } from '@/components/ui/status-badge';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { coinName } from '@domain/coins.ts';
import { formatUsd } from '@/lib/format';
import { BUY_APPROVED_MESSAGE, BUY_REJECTED_MESSAGE, NO_MATCHES_MESSAGE } from '../api/admin-messages';
import { useDecideBuyRequest } from '../api/decide-buy-request';
import {
  buyRequestsList,
  buyRequestsQueryKeyRoot,
  buyRequestsQueries,
  type AdminBuyRequest,
} from '../api/get-buy-requests';
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

const COLUMNS = 10;

const csvColumns: CsvColumn<AdminBuyRequest>[] = [
  ...whenAndWhoColumns(),
  { header: 'Cryptocurrency', value: (request) => request.cryptocurrency },
  { header: 'Amount (USD)', value: (request) => csvAmount(request.amount) },
  { header: 'Available balance (USD)', value: (request) => csvAmount(request.available) },
  { header: 'Status', value: (request) => request.status },
  { header: 'Request ID', value: (request) => request.id },
];

/** /admin/buy-requests: the live queue; Approve and Reject while a request is pending, each confirmed first. */
export function BuyRequestsPage() {
  const list = useListUrlState(buyRequestsList);
  const { state, setSort, setFilter } = list;
  const requests = buyRequestsQueries.useList(state);
  const decision = useDecideBuyRequest();
  const [action, setAction] = useState<PendingAdminAction>();
  useAdminQueueRealtime('buy_requests', buyRequestsQueryKeyRoot);

  const confirmDecision = (request: AdminBuyRequest, approve: boolean) =>
    setAction({
      title: approve ? 'Approve buy request' : 'Reject buy request',
      person: { name: request.userName, email: request.email },
      details: [
        { term: 'Cryptocurrency', description: coinName(request.cryptocurrency) },
        { term: 'Price now', description: usdOrDash(request.price) },
        { term: 'Limit', description: limitText(request.limitPrice) },
      ],
      amount: request.amount,
      available: request.available,
      consequence: approve
        ? `Approving takes ${formatUsd(request.amount)} from this person's balance for ${coinName(request.cryptocurrency)}. This is final.`
        : 'Rejecting closes the request; no money moves. This is final.',
      confirmLabel: approve ? 'Approve' : 'Reject',
      destructive: !approve,
      successMessage: approve ? BUY_APPROVED_MESSAGE : BUY_REJECTED_MESSAGE,
      run: () => decision.mutateAsync({ requestId: request.id, decision: approve ? 'approve' : 'reject' }),
    });

  return (
    <Card>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-6">
        <ListToolbar
          list={list}
          choices={[{ name: 'status', label: 'Status', choices: requestStatuses }]}
          personName={requests.data?.rows[0]?.userName}
          csv={{ list: 'buy-requests', columns: csvColumns, readAll: () => buyRequestsQueries.getAll(state) }}
        />
        <ListTable label="Buy requests" busy={requests.isFetching}>
          <TableHeader>
            <TableRow>
              <SortableHead column="date" sort={state.sort} onSort={setSort}>
                Date
              </SortableHead>
              <TableHead>User</TableHead>
              <SortableHead column="cryptocurrency" sort={state.sort} onSort={setSort}>
                Cryptocurrency
              </SortableHead>
              <SortableHead column="amount" sort={state.sort} onSort={setSort} align="right">
                Amount (USD)
              </SortableHead>
              <TableHead align="right">Available balance</TableHead>
              <TableHead align="right">Price now (USD)</TableHead>
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
              emptyMessage={isNarrowed(state) ? NO_MATCHES_MESSAGE : 'No buy requests yet.'}
            >
              {(request) => (
                <TableRow key={request.id} data-testid="admin-buy-request-row">
                  <DateTimeCell value={request.date} />
                  <PersonCell
                    name={request.userName}
                    email={request.email}
                    onOnlyThisPerson={() => setFilter('user', request.userId)}
                  />
                  <TableCell>{coinName(request.cryptocurrency)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatUsd(request.amount)}</TableCell>
                  <TableCell className="text-muted-foreground text-right tabular-nums">
                    {formatUsd(request.available)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{usdOrDash(request.price)}</TableCell>
                  <PriceProtectionCells side="buy" request={request} />
                  <TableCell>
                    <StatusBadge status={request.expired ? 'expired' : request.status} palette="request" />
                  </TableCell>
                  <TableCell className={STICKY_ACTIONS}>
                    {request.status === 'pending' && (
                      <DecisionButtons
                        subject={`${request.userName || request.email}'s request of ${formatUsd(request.amount)}`}
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
        <ListPager label="Buy requests" data={requests.data} list={list} />
      </CardContent>
      <ConfirmActionDialog action={action} onClose={() => setAction(undefined)} />
    </Card>
  );
}
