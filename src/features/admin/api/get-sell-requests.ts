import { supabase } from '@/lib/supabase';
import { SELL_REQUESTS_FAILED_MESSAGE } from './admin-messages';
import { buyRequestsList } from './get-buy-requests';
import {
  numberOrUndefined,
  PRICE_PROTECTION_COLUMNS,
  priceProtectionFields,
  type PriceProtectedRequest,
} from './price-protection-fields';
import { adminListQueries, applyListState, personAmountFields } from './list-query';
import type { ListDefinition, ListState } from './list-state';
import type { RequestStatus } from '@domain/statuses.ts';

export interface AdminSellRequest extends Omit<PriceProtectedRequest, 'price'> {
  id: string;
  userId: string;
  userName: string;
  email: string;
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
  date: string;
}

/** Sorted, filtered and searched as the buy queue (the amount being the value in USD). */
export const sellRequestsList: ListDefinition = {
  ...buyRequestsList,
  sortColumns: [...buyRequestsList.sortColumns, 'quantity'],
};

export const sellRequestsQueryKeyRoot = ['admin', 'sell-requests'] as const;

const read = (state: ListState) => (head: boolean) =>
  applyListState(
    supabase
      .from('sell_requests_with_user')
      .select(
        `id, user_id, full_name, email, cryptocurrency, quantity, amount, held, available, status, date, ${PRICE_PROTECTION_COLUMNS}`,
        { count: 'exact', head },
      ),
    state,
    { date: 'date', search: ['full_name', 'email'] },
  );

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof read>>>['data']>[number];

const toSellRequest = (row: Row): AdminSellRequest => ({
  ...personAmountFields({ ...row, amount: row.amount ?? 0 }),
  ...priceProtectionFields(row),
  amount: numberOrUndefined(row.amount),
  cryptocurrency: row.cryptocurrency,
  quantity: Number(row.quantity),
  held: Number(row.held ?? 0),
  status: row.status,
});

export const sellRequestsQueries = adminListQueries({
  keyRoot: sellRequestsQueryKeyRoot,
  read,
  toItem: toSellRequest,
  failedMessage: SELL_REQUESTS_FAILED_MESSAGE,
});
