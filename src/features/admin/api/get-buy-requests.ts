import { requestStatuses, type RequestStatus } from '@domain/statuses.ts';
import { supabase } from '@/lib/supabase';
import { BUY_REQUESTS_FAILED_MESSAGE } from './admin-messages';
import {
  PRICE_PROTECTION_COLUMNS,
  priceProtectionFields,
  type PriceProtectedRequest,
} from './price-protection-fields';
import { adminListQueries, applyListState, personAmountFields } from './list-query';
import { isCalendarDay, isUserId, oneOf, type ListDefinition, type ListState } from './list-state';

export interface AdminBuyRequest extends PriceProtectedRequest {
  id: string;
  userId: string;
  userName: string;
  email: string;
  cryptocurrency: string;
  amount: number;
  /** The person's available balance now: what an approval takes from. */
  available: number;
  status: RequestStatus;
  date: string;
}

export const buyRequestsList: ListDefinition = {
  sortColumns: ['date', 'amount', 'status', 'cryptocurrency'],
  defaultSort: { column: 'date', ascending: false },
  filters: {
    status: oneOf(requestStatuses),
    from: isCalendarDay,
    to: isCalendarDay,
    user: isUserId,
  },
};

export const buyRequestsQueryKeyRoot = ['admin', 'buy-requests'] as const;

const read = (state: ListState) => (head: boolean) =>
  applyListState(
    supabase
      .from('buy_requests_with_user')
      .select(
        `id, user_id, full_name, email, cryptocurrency, amount, available, status, date, ${PRICE_PROTECTION_COLUMNS}`,
        { count: 'exact', head },
      ),
    state,
    { date: 'date', search: ['full_name', 'email'] },
  );

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof read>>>['data']>[number];

const toBuyRequest = (row: Row): AdminBuyRequest => ({
  ...personAmountFields(row),
  ...priceProtectionFields(row),
  cryptocurrency: row.cryptocurrency,
  status: row.status,
});

export const buyRequestsQueries = adminListQueries({
  keyRoot: buyRequestsQueryKeyRoot,
  read,
  toItem: toBuyRequest,
  failedMessage: BUY_REQUESTS_FAILED_MESSAGE,
});
