import { useState } from 'react';
import { coinName } from '@domain/coins.ts';
import { countedTransactionStatus, transactionStatuses, transactionTypes } from '@domain/statuses.ts';
import { TableCell } from '@/components/ui/table';
import { useSession } from '@/lib/auth';
import { whenAndWhoColumns } from '@/lib/csv';
import { formatStatus, formatUsd, formatUsdPlain } from '@/lib/format';
import { TRANSACTION_STATUS_UPDATED_MESSAGE } from '../api/admin-messages';
import { transactions, type AdminTransaction } from '../api/get-transactions';
import { useSetTransactionStatus } from '../api/set-transaction-status';
import { ConfirmActionDialog, type PendingAdminAction } from './confirm-action-dialog';
import { availableColumn, dateColumn, numberColumn, personColumn } from './list-columns';
import type { LedgerKind } from './ledger-page';
import { moneySafetyNote, moneySafetyState } from './queue-kind';
import { statusOptions, useStatusChanges } from './status-changes';

const TRANSACTION_STATUSES = statusOptions(transactionStatuses);

/**
 * /admin/transactions: every transaction with a status that may change at any time: chosen, then applied;
 * a change that moves the balance (to or from complete) is confirmed first. A transaction not yet complete
 * that the money gate holds, or that this admin approved above the four-eyes threshold, says so and offers no
 * Complete; one that records an approved request offers no change at all, and says why (the database refuses
 * both too).
 */
export const transactionsLedger: LedgerKind<AdminTransaction> = {
  label: 'Transactions',
  rowTestId: 'admin-transaction-row',
  emptyMessage: 'No transactions yet.',
  list: transactions,
  personOf: (transaction) => transaction.userName,
  csv: {
    name: 'transactions',
    columns: [
      ...whenAndWhoColumns(),
      { header: 'Type', value: (transaction) => transaction.type },
      { header: 'Cryptocurrency', value: (transaction) => transaction.cryptocurrency },
      { header: 'Amount (USD)', value: (transaction) => formatUsdPlain(transaction.amount) },
      { header: 'Status', value: (transaction) => transaction.status },
      { header: 'Transaction ID', value: (transaction) => transaction.id },
    ],
  },
  useView: function useTransactionsLedger(list) {
    const [action, setAction] = useState<PendingAdminAction>();
    const statusChange = useSetTransactionStatus();
    const { user } = useSession();
    const open = (transaction: AdminTransaction) => transaction.status !== countedTransactionStatus;
    const statuses = useStatusChanges<AdminTransaction>({
      palette: 'transaction',
      builtIn: TRANSACTION_STATUSES,
      withheld: (transaction) =>
        open(transaction) && moneySafetyState(transaction, user?.id) !== 'open'
          ? [countedTransactionStatus]
          : [],
      fixed: (transaction) => transaction.settled,
      note: (transaction) => {
        if (transaction.settled)
          return `Records an approved ${transaction.type} request: its status is final.`;
        return open(transaction) ? moneySafetyNote(transaction, user?.id) : undefined;
      },
      label: (transaction) =>
        `Status of ${transaction.userName || transaction.email}'s ${transaction.type} of ${formatUsd(transaction.amount)}`,
      busy: statusChange.isPending,
      change: (transaction, status) => statusChange.mutateAsync({ transactionId: transaction.id, status }),
      confirmation: (transaction, status, run) => {
        const credits = status === countedTransactionStatus;
        if (!credits && transaction.status !== countedTransactionStatus) return undefined;
        // A deposit or sell adds to the balance when it counts; a buy or withdrawal takes from it.
        const adds = transaction.type === 'deposit' || transaction.type === 'sell';
        const direction = credits === adds ? 'adds' : 'takes';
        return {
          title: `Set ${transaction.type} to ${status}`,
          person: { name: transaction.userName, email: transaction.email },
          amount: transaction.amount,
          available: transaction.available,
          consequence: `This ${direction} ${formatUsd(transaction.amount)} ${direction === 'adds' ? 'to' : 'from'} this person's balance at once.`,
          confirmLabel: 'Change status',
          successMessage: TRANSACTION_STATUS_UPDATED_MESSAGE,
          run,
        };
      },
      successMessage: TRANSACTION_STATUS_UPDATED_MESSAGE,
      confirm: setAction,
    });
    return {
      choices: [
        { name: 'type', label: 'Type', choices: transactionTypes },
        { name: 'status', label: 'Status', choices: [...transactionStatuses, ...statuses.statusTypeNames] },
      ],
      columns: [
        dateColumn(),
        personColumn(list.setFilter),
        {
          header: 'Type',
          sort: 'type',
          cell: (transaction) => (
            <TableCell>
              {formatStatus(transaction.type)}
              {transaction.cryptocurrency && (
                <span className="text-muted-foreground"> · {coinName(transaction.cryptocurrency)}</span>
              )}
            </TableCell>
          ),
        },
        numberColumn('Amount', (transaction) => formatUsd(transaction.amount), { sort: 'amount' }),
        availableColumn(),
        statuses.column,
      ],
      alsoWaitFor: [statuses.statusTypes],
      dialogs: <ConfirmActionDialog action={action} onClose={() => setAction(undefined)} />,
    };
  },
};
