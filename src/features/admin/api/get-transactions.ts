import { transactionTypes } from '@domain/statuses.ts';
import { supabase } from '@/lib/supabase';
import { TRANSACTIONS_FAILED_MESSAGE } from './admin-messages';
import { adminList, MONEY_SAFETY_COLUMNS, personMoneyFields, type PersonMoneyItem } from './list-query';
import { isStatusName, NEWEST_FIRST, oneOf, personListFilters } from './list-state';

/** A transaction as the ledger lists it; while not complete, what stops its completion (a hold, a proposal). */
export interface AdminTransaction extends PersonMoneyItem {
  type: 'deposit' | 'sell' | 'withdraw' | 'buy';
  status: string;
  /** It records an approved buy, sell or withdraw request: its status is final. */
  settled: boolean;
  cryptocurrency: string | null;
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
    ...personMoneyFields(row),
    type: row.type,
    status: row.status,
    settled: row.settled === true,
    cryptocurrency: row.cryptocurrency,
  }),
  failedMessage: TRANSACTIONS_FAILED_MESSAGE,
});
