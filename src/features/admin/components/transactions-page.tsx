import { useState } from 'react';
import { toast } from 'sonner';
import { countedTransactionStatus, transactionStatuses, transactionTypes } from '@domain/statuses.ts';
import { Card, CardContent } from '@/components/ui/card';
import { StatusBadge } from '@/components/ui/status-badge';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { coinName } from '@domain/coins.ts';
import { formatStatus, formatUsd } from '@/lib/format';
import { TRANSACTION_STATUS_UPDATED_MESSAGE, NO_MATCHES_MESSAGE } from '../api/admin-messages';
import { useStatusTypes } from '../api/get-status-types';
import { transactionsList, transactionsQueries, type AdminTransaction } from '../api/get-transactions';
import { useSetTransactionStatus } from '../api/set-transaction-status';
import { isNarrowed } from '../api/list-state';
import { useListUrlState } from '../hooks/use-list-url-state';
import { csvAmount, whenAndWhoColumns, type CsvColumn } from '@/lib/csv';
import { ConfirmActionDialog, type PendingAdminAction } from './confirm-action-dialog';
import { DateTimeCell } from './date-time-cell';
import { ListPager } from './list-pager';
import { ListTable, SortableHead } from './list-table';
import { ListToolbar } from './list-toolbar';
import { PersonCell } from './person-cell';
import { StatusSelect, type StatusOption } from './status-select';
import { QueryRows } from '@/components/query-state';

const COLUMNS = 6;
const TRANSACTION_STATUSES: StatusOption[] = transactionStatuses.map((status) => ({
  value: status,
  label: formatStatus(status),
}));

const csvColumns: CsvColumn<AdminTransaction>[] = [
  ...whenAndWhoColumns(),
  { header: 'Type', value: (transaction) => transaction.type },
  { header: 'Cryptocurrency', value: (transaction) => transaction.cryptocurrency },
  { header: 'Amount (USD)', value: (transaction) => csvAmount(transaction.amount) },
  { header: 'Status', value: (transaction) => transaction.status },
  { header: 'Transaction ID', value: (transaction) => transaction.id },
];

/**
 * /admin/transactions: every transaction with a status that may change at any time: chosen, then applied;
 * a change that moves the balance (to or from complete) is confirmed first.
 */
export function TransactionsPage() {
  const list = useListUrlState(transactionsList);
  const { state, setSort, setFilter } = list;
  const transactions = transactionsQueries.useList(state);
  const statusTypes = useStatusTypes();
  const statusChange = useSetTransactionStatus();
  const [action, setAction] = useState<PendingAdminAction>();
  const statusTypeNames = statusTypes.data?.map((statusType) => statusType.name) ?? [];

  const changeStatus = (transaction: AdminTransaction, status: string) => {
    const change = () => statusChange.mutateAsync({ transactionId: transaction.id, status });
    const credits = status === countedTransactionStatus;
    if (!credits && transaction.status !== countedTransactionStatus) {
      change().then(
        () => toast.success(TRANSACTION_STATUS_UPDATED_MESSAGE),
        (error: Error) => toast.error(error.message),
      );
      return;
    }
    // A deposit or sell adds to the balance when it counts; a buy or withdrawal takes from it.
    const adds = transaction.type === 'deposit' || transaction.type === 'sell';
    const direction = credits === adds ? 'adds' : 'takes';
    setAction({
      title: `Set ${transaction.type} to ${status}`,
      person: { name: transaction.userName, email: transaction.email },
      amount: transaction.amount,
      available: transaction.available,
      consequence: `This ${direction} ${formatUsd(transaction.amount)} ${direction === 'adds' ? 'to' : 'from'} this person's balance at once.`,
      confirmLabel: 'Change status',
      successMessage: TRANSACTION_STATUS_UPDATED_MESSAGE,
      run: change,
    });
  };

  return (
    <Card>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-6">
        <ListToolbar
          list={list}
          choices={[
            { name: 'type', label: 'Type', choices: transactionTypes },
            {
              name: 'status',
              label: 'Status',
              choices: [...TRANSACTION_STATUSES.map((status) => status.value), ...statusTypeNames],
            },
          ]}
          personName={transactions.data?.rows[0]?.userName}
          csv={{
            list: 'transactions',
            columns: csvColumns,
            readAll: () => transactionsQueries.getAll(state),
          }}
        />
        <ListTable label="Transactions" busy={transactions.isFetching}>
          <TableHeader>
            <TableRow>
              <SortableHead column="date" sort={state.sort} onSort={setSort}>
                Date
              </SortableHead>
              <TableHead>User</TableHead>
              <SortableHead column="type" sort={state.sort} onSort={setSort}>
                Type
              </SortableHead>
              <SortableHead column="amount" sort={state.sort} onSort={setSort} align="right">
                Amount
              </SortableHead>
              <TableHead align="right">Available balance</TableHead>
              <SortableHead column="status" sort={state.sort} onSort={setSort}>
                Status
              </SortableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            <QueryRows
              columns={COLUMNS}
              queries={[transactions, statusTypes]}
              rows={transactions.data?.rows}
              emptyMessage={isNarrowed(state) ? NO_MATCHES_MESSAGE : 'No transactions yet.'}
            >
              {(transaction) => (
                <TableRow key={transaction.id} data-testid="admin-transaction-row">
                  <DateTimeCell value={transaction.date} />
                  <PersonCell
                    name={transaction.userName}
                    email={transaction.email}
                    onOnlyThisPerson={() => setFilter('user', transaction.userId)}
                  />
                  <TableCell>
                    {formatStatus(transaction.type)}
                    {transaction.cryptocurrency && (
                      <span className="text-muted-foreground"> · {coinName(transaction.cryptocurrency)}</span>
                    )}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{formatUsd(transaction.amount)}</TableCell>
                  <TableCell className="text-muted-foreground text-right tabular-nums">
                    {formatUsd(transaction.available)}
                  </TableCell>
                  <TableCell>
                    <div className="grid justify-items-start gap-1.5">
                      <StatusBadge status={transaction.status} palette="transaction" />
                      <StatusSelect
                        label={`Status of ${transaction.userName || transaction.email}'s ${transaction.type} of ${formatUsd(transaction.amount)}`}
                        value={transaction.status}
                        builtIn={TRANSACTION_STATUSES}
                        statusTypes={statusTypeNames}
                        disabled={statusChange.isPending}
                        onApply={(status) => changeStatus(transaction, status)}
                      />
                    </div>
                  </TableCell>
                </TableRow>
              )}
            </QueryRows>
          </TableBody>
        </ListTable>
        <ListPager label="Transactions" data={transactions.data} list={list} />
      </CardContent>
      <ConfirmActionDialog action={action} onClose={() => setAction(undefined)} />
    </Card>
  );
}
