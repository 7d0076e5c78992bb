import { withdrawMethods, type WithdrawMethod } from '@domain/withdrawal.ts';
import { supabase } from '@/lib/supabase';
import { WITHDRAW_REQUESTS_FAILED_MESSAGE } from './admin-messages';
import { adminListQueries, applyListState, personAmountFields } from './list-query';
import {
  isCalendarDay,
  isStatusName,
  isUserId,
  oneOf,
  type ListDefinition,
  type ListState,
} from './list-state';

export interface AdminWithdrawRequest {
  id: string;
  userId: string;
  userName: string;
  email: string;
  amount: number;
  /** The person's available balance now (open withdraw requests, this one included, already reserved). */
  available: number;
  withdrawMethod: WithdrawMethod;
  status: string;
  date: string;
}

export const withdrawRequestsList: ListDefinition = {
  sortColumns: ['date', 'amount', 'status', 'withdraw_method'],
  defaultSort: { column: 'date', ascending: false },
  filters: {
    status: isStatusName,
    method: oneOf(withdrawMethods),
    from: isCalendarDay,
    to: isCalendarDay,
    user: isUserId,
  },
};

export const withdrawRequestsQueryKeyRoot = ['admin', 'withdraw-requests'] as const;

const read = (state: ListState) => (head: boolean) =>
  applyListState(
    supabase
      .from('withdraw_requests_with_user')
      .select('id, user_id, full_name, email, amount, available, withdraw_method, status, date', {
        count: 'exact',
        head,
      }),
    state,
    { date: 'date', search: ['full_name', 'email'] },
  );

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof read>>>['data']>[number];

const toWithdrawRequest = (row: Row): AdminWithdrawRequest => ({
  ...personAmountFields(row),
  withdrawMethod: row.withdraw_method,
  status: row.status,
});

export const withdrawRequestsQueries = adminListQueries({
  keyRoot: withdrawRequestsQueryKeyRoot,
  read,
  toItem: toWithdrawRequest,
  failedMessage: WITHDRAW_REQUESTS_FAILED_MESSAGE,
});
