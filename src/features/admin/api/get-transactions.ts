import { transactionTypes } from '@domain/statuses.ts';
import { supabase } from '@/lib/supabase';
import { TRANSACTIONS_FAILED_MESSAGE } from './admin-messages';
import {
  adminList,
  MONEY_SAFETY_COLUMNS,
  moneySafetyFields,
  personAmountFields,
  type MoneySafety,
} from './list-query';
import { isStatusName, NEWEST_FIRST, oneOf, personListFilters } from './list-state';

/** A transaction as the ledger lists it; while not complete, what stops its completion (a hold, a proposal). */
export interface AdminTransaction extends MoneySafety {
  id: string;
  userId: string;
  userName: string;
  email: string;
  type: 'deposit' | 'sell' | 'withdraw' | 'buy';
  amount: number;
  /** The person's available balance now. */
  available: number;
  status: string;
  /** It records an approved buy, sell or withdraw request: its status is final. */
  settled: boolean;
  cryptocurrency: string | null;
  date: string;
}

/** The ledger's fetcher: every transaction, filtered by any status and by type. */
export const transactions = adminList({
  keyRoot: ['admin', 'transactions'],
  definition: {
    sortColumns: ['date', 'amount', 'status', 'type'],
    defaultSort: NEWEST_FIRST,
    filters: { status: isStatusName, type: oneOf(transactionTypes), ...personListFilters },
  },
  select: (head) =>
    supabase
      .from('transactions_with_user')
      .select(
        `id, user_id, full_name, email, type, amount, available, status, settled, cryptocurrency, date, ${MONEY_SAFETY_COLUMNS}`,
        { count: 'exact', head },
      ),
  toItem: (row): AdminTransaction => ({
    ...personAmountFields(row),
    type: row.type,
    status: row.status,
    settled: row.settled === true,
    cryptocurrency: row.cryptocurrency,
    ...moneySafetyFields(row),
  }),
  failedMessage: TRANSACTIONS_FAILED_MESSAGE,
});
