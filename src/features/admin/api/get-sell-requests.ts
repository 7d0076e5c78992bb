import type { RequestStatus } from '@domain/statuses.ts';
import { supabase } from '@/lib/supabase';
import { SELL_REQUESTS_FAILED_MESSAGE } from './admin-messages';
import { buyRequests } from './get-buy-requests';
import {
  numberOrUndefined,
  PRICE_PROTECTION_COLUMNS,
  priceProtectionFields,
  type PriceProtectedRequest,
} from './price-protection-fields';
import { adminList, MONEY_SAFETY_COLUMNS, personMoneyFields, type PersonMoneyItem } from './list-query';

export interface AdminSellRequest
  extends Omit<PriceProtectedRequest, 'price'>, Omit<PersonMoneyItem, 'amount'> {
  cryptocurrency: string;
  /** Coins to sell. */
  quantity: number;
  /** USD per coin: the current price while pending (undefined without one), the fill price once approved. */
  price: number | undefined;
  /** USD: what approving credits now while pending, what was credited once approved. */
  amount: number | undefined;
  /** Coins of this kind the person holds now. */
  held: number;
  /** The person's available USD balance now. */
  available: number;
  status: RequestStatus;
}

/**
 * The sell queue's fetcher, sorted, filtered and searched as the buy queue (the amount being the value in
 * USD), and by quantity.
 */
export const sellRequests = adminList({
  keyRoot: ['admin', 'sell-requests'],
  definition: {
    ...buyRequests.definition,
    sortColumns: [...buyRequests.definition.sortColumns, 'quantity'],
  },
  select: (head) =>
    supabase
      .from('sell_requests_with_user')
      .select(
        `id, user_id, full_name, email, cryptocurrency, quantity, amount, held, available, status, date, ${PRICE_PROTECTION_COLUMNS}, ${MONEY_SAFETY_COLUMNS}`,
        { count: 'exact', head },
      ),
  toItem: (row): AdminSellRequest => ({
    ...personMoneyFields({ ...row, amount: row.amount ?? 0 }),
    ...priceProtectionFields(row),
    amount: numberOrUndefined(row.amount),
    cryptocurrency: row.cryptocurrency,
    quantity: Number(row.quantity),
    held: Number(row.held ?? 0),
    status: row.status,
  }),
  failedMessage: SELL_REQUESTS_FAILED_MESSAGE,
});
