import { useState } from 'react';
import { toast } from 'sonner';
import { Card, CardContent } from '@/components/ui/card';
import { StatusBadge } from '@/components/ui/status-badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatUsd } from '@/lib/format';
import { TRANSACTION_STATUS_UPDATED_MESSAGE } from '../api/admin-messages';
import { useStatusTypes } from '../api/get-status-types';
import { useTransactions } from '../api/get-transactions';
import { useSetTransactionStatus } from '../api/set-transaction-status';
import { DateTimeCell } from './date-time-cell';
import { PersonCell } from './person-cell';
import { Pager } from './pager';
import { StatusSelect, type StatusOption } from './status-select';
import { QueryRows } from './table-states';

const COLUMNS = 5;
const TRANSACTION_STATUSES: StatusOption[] = [
  { value: 'pending', label: 'Pending' },
  { value: 'complete', label: 'Complete' },
];

/** /admin/transactions: every transaction, newest first, with a status dropdown that may change at any time. */
export function TransactionsPage() {
  const [page, setPage] = useState(0);
  const transactions = useTransactions(page);
  const statusTypes = useStatusTypes();
  const statusChange = useSetTransactionStatus();
  const statusTypeNames = statusTypes.data?.map((statusType) => statusType.name) ?? [];

  const changeStatus = (transactionId: string, status: string) =>
    statusChange.mutate(
      { transactionId, status },
      {
        onSuccess: () => toast.success(TRANSACTION_STATUS_UPDATED_MESSAGE),
        onError: (error) => toast.error(error.message),
      },
    );

  return (
    <Card>
      <CardContent className="grid gap-4 pt-6">
        <Table aria-busy={transactions.isFetching}>
          <TableHeader>
            <TableRow>
              <TableHead>Date</TableHead>
              <TableHead>User</TableHead>
              <TableHead>Type</TableHead>
              <TableHead align="right">Amount</TableHead>
              <TableHead>Status</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            <QueryRows
              columns={COLUMNS}
              queries={[transactions, statusTypes]}
              rows={transactions.data?.rows}
              emptyMessage="No transactions yet."
            >
              {(transaction) => (
                <TableRow key={transaction.id} data-testid="admin-transaction-row">
                  <DateTimeCell value={transaction.date} />
                  <PersonCell name={transaction.userName} email={transaction.email} />
                  <TableCell className="capitalize">
                    {transaction.type}
                    {transaction.cryptocurrency && (
                      <span className="text-muted-foreground"> · {transaction.cryptocurrency}</span>
                    )}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{formatUsd(transaction.amount)}</TableCell>
                  <TableCell>
                    <div className="grid justify-items-start gap-1.5">
                      <StatusBadge status={transaction.status} palette="transaction" />
                      <StatusSelect
                        label={`Status of ${transaction.userName || transaction.email}'s ${transaction.type} of ${formatUsd(transaction.amount)}`}
                        value={transaction.status}
                        builtIn={TRANSACTION_STATUSES}
                        statusTypes={statusTypeNames}
                        disabled={statusChange.isPending}
                        onChange={(status) => changeStatus(transaction.id, status)}
                      />
                    </div>
                  </TableCell>
                </TableRow>
              )}
            </QueryRows>
          </TableBody>
        </Table>
        {transactions.data && (
          <Pager label="Transactions" page={page} total={transactions.data.total} onPageChange={setPage} />
        )}
      </CardContent>
    </Card>
  );
}
