import { useInfiniteQuery } from '@tanstack/react-query';
import { pagedListOptions, pageRange, toPage, type RowsPage } from '@/lib/paged-list';
import { supabase } from '@/lib/supabase';
import type { BuyRequest } from '../types';
import { BUY_REQUESTS_FAILED_MESSAGE } from './buy-messages';

export const buyRequestsQueryKey = (userId: string) => ['buy-requests', userId] as const;

/** The columns the list shows; always named, never `*`. */
const BUY_REQUEST_COLUMNS =
  'id, cryptocurrency, amount, status, date, expires_at, limit_price, rejection_reason, fill_price, quantity::text';

/** One page of the person's own buy requests, newest first (row-level security keeps others' out anyway). */
export async function getBuyRequests(userId: string, page: number): Promise<RowsPage<BuyRequest>> {
  const { data, error } = await supabase
    .from('buy_requests_with_fill')
    .select(BUY_REQUEST_COLUMNS)
    .eq('user_id', userId)
    .order('date', { ascending: false })
    .order('id', { ascending: false })
    .range(...pageRange(page));
  if (error) throw new Error(BUY_REQUESTS_FAILED_MESSAGE, { cause: error });
  return toPage(
    data.map((row) => ({
      ...row,
      amount: Number(row.amount),
      limit_price: row.limit_price === null ? null : Number(row.limit_price),
      fill_price: row.fill_price === null ? null : Number(row.fill_price),
    })),
  );
}

/** The requests a page at a time (`data`: the rows loaded so far; `fetchNextPage` for older ones). */
export function useBuyRequests(userId: string | undefined) {
  return useInfiniteQuery({
    queryKey: buyRequestsQueryKey(userId ?? ''),
    queryFn: ({ pageParam }) => getBuyRequests(userId ?? '', pageParam),
    ...pagedListOptions<BuyRequest>(),
    enabled: Boolean(userId),
  });
}
