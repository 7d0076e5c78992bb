import { transactionTypes } from '@domain/statuses.ts';
import { supabase } from '@/lib/supabase';
import { TRANSACTIONS_FAILED_MESSAGE } from './admin-messages';
import { adminListQueries, applyListState, personAmountFields } from './list-query';
import {
  isCalendarDay,
  isStatusName,
  isUserId,
  oneOf,
  type ListDefinition,
  type ListState,
} from './list-state';

export interface AdminTransaction {
  id: string;
  userId: string;
  userName: string;
  email: string;
  type: 'deposit' | 'sell' | 'withdraw' | 'buy';
  amount: number;
  /** The person's available balance now. */
  available: number;
  status: string;
  cryptocurrency: string | null;
  date: string;
}

export const transactionsList: ListDefinition = {
  sortColumns: ['date', 'amount', 'status', 'type'],
  defaultSort: { column: 'date', ascending: false },
  filters: {
    status: isStatusName,
    type: oneOf(transactionTypes),
    from: isCalendarDay,
    to: isCalendarDay,
    user: isUserId,
  },
};

export const transactionsQueryKeyRoot = ['admin', 'transactions'] as const;

const read = (state: ListState) => (head: boolean) =>
  applyListState(
    supabase
      .from('transactions_with_user')
      .select('id, user_id, full_name, email, type, amount, available, status, cryptocurrency, date', {
        count: 'exact',
        head,
      }),
    state,
    { date: 'date', search: ['full_name', 'email'] },
  );

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof read>>>['data']>[number];

const toTransaction = (row: Row): AdminTransaction => ({
  ...personAmountFields(row),
  type: row.type,
  status: row.status,
  cryptocurrency: row.cryptocurrency,
});

export const transactionsQueries = adminListQueries({
  keyRoot: transactionsQueryKeyRoot,
  read,
  toItem: toTransaction,
  failedMessage: TRANSACTIONS_FAILED_MESSAGE,
});
