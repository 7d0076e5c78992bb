import { requestStatuses, type RequestStatus } from '@domain/statuses.ts';
import { supabase } from '@/lib/supabase';
import { BUY_REQUESTS_FAILED_MESSAGE } from './admin-messages';
import {
  PRICE_PROTECTION_COLUMNS,
  priceProtectionFields,
  type PriceProtectedRequest,
} from './price-protection-fields';
import { adminList, MONEY_SAFETY_COLUMNS, personMoneyFields, type PersonMoneyItem } from './list-query';
import { NEWEST_FIRST, oneOf, personListFilters } from './list-state';

export interface AdminBuyRequest extends PriceProtectedRequest, PersonMoneyItem {
  cryptocurrency: string;
  /** The person's available balance now: what an approval takes from. */
  available: number;
  status: RequestStatus;
  /** Placed by a run of the person's recurring buy, not by the person at that moment. */
  recurring: boolean;
}

/** The buy queue's fetcher: every buy request with its person, price protection and the balance it takes from. */
export const buyRequests = adminList({
  keyRoot: ['admin', 'buy-requests'],
  definition: {
    sortColumns: ['date', 'amount', 'status', 'cryptocurrency'],
    defaultSort: NEWEST_FIRST,
    filters: { status: oneOf(requestStatuses), ...personListFilters },
  },
  select: (head) =>
    supabase
      .from('buy_requests_with_user')
      .select(
        `id, user_id, full_name, email, cryptocurrency, amount, available, status, date, recurring, ${PRICE_PROTECTION_COLUMNS}, ${MONEY_SAFETY_COLUMNS}`,
        { count: 'exact', head },
      ),
  toItem: (row): AdminBuyRequest => ({
    ...personMoneyFields(row),
    ...priceProtectionFields(row),
    cryptocurrency: row.cryptocurrency,
    status: row.status,
    recurring: row.recurring ?? false,
  }),
  failedMessage: BUY_REQUESTS_FAILED_MESSAGE,
});
