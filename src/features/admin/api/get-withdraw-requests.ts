import { withdrawMethods, type WithdrawMethod } from '@domain/withdrawal.ts';
import { supabase } from '@/lib/supabase';
import { WITHDRAW_REQUESTS_FAILED_MESSAGE } from './admin-messages';
import { adminList, MONEY_SAFETY_COLUMNS, personMoneyFields, type PersonMoneyItem } from './list-query';
import { isStatusName, NEWEST_FIRST, oneOf, personListFilters } from './list-state';

export interface AdminWithdrawRequest extends PersonMoneyItem {
  /** The person's available balance now (open withdraw requests, this one included, already reserved). */
  available: number;
  withdrawMethod: WithdrawMethod;
  status: string;
}

/** The withdraw queue's fetcher: filtered by any status (built in or an admin's status type) and by method. */
export const withdrawRequests = adminList({
  keyRoot: ['admin', 'withdraw-requests'],
  definition: {
    sortColumns: ['date', 'amount', 'status', 'withdraw_method'],
    defaultSort: NEWEST_FIRST,
    filters: { status: isStatusName, method: oneOf(withdrawMethods), ...personListFilters },
  },
  select: (head) =>
    supabase
      .from('withdraw_requests_with_user')
      .select(
        `id, user_id, full_name, email, amount, available, withdraw_method, status, date, ${MONEY_SAFETY_COLUMNS}`,
        {
          count: 'exact',
          head,
        },
      ),
  toItem: (row): AdminWithdrawRequest => ({
    ...personMoneyFields(row),
    withdrawMethod: row.withdraw_method,
    status: row.status,
  }),
  failedMessage: WITHDRAW_REQUESTS_FAILED_MESSAGE,
});
