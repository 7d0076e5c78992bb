import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { BuyRequest } from '../types';
import { BUY_REQUESTS_FAILED_MESSAGE } from './buy-messages';

export const buyRequestsQueryKey = (userId: string) => ['buy-requests', userId] as const;

/** The columns the list shows; always named, never `*`. */
const BUY_REQUEST_COLUMNS = 'id, cryptocurrency, amount, status, date';

/** The person's own buy requests, newest first (row-level security keeps everyone else's out anyway). */
export async function getBuyRequests(userId: string): Promise<BuyRequest[]> {
  const { data, error } = await supabase
    .from('buy_requests')
    .select(BUY_REQUEST_COLUMNS)
    .eq('user_id', userId)
    .order('date', { ascending: false });
  if (error) throw new Error(BUY_REQUESTS_FAILED_MESSAGE, { cause: error });
  return data.map((row) => ({ ...row, amount: Number(row.amount) }));
}

export const buyRequestsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: buyRequestsQueryKey(userId), queryFn: () => getBuyRequests(userId) });

export function useBuyRequests(userId: string | undefined) {
  return useQuery({ ...buyRequestsQueryOptions(userId ?? ''), enabled: Boolean(userId) });
}
