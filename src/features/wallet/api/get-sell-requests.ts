import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

/** One of the person's sell requests, as stored (an expired one is still `pending`; the list derives it). */
export interface SellRequest {
  id: string;
  cryptocurrency: string;
  /** Coins asked to sell, as exact decimal text. */
  quantity: string;
  /** The least USD per coin the person accepts; null for none. */
  limitPrice: number | null;
  status: string;
  date: string;
  expiresAt: string;
  rejectionReason: string | null;
  /** USD per coin the approval filled at; null until approved. */
  fillPrice: number | null;
  /** USD credited; null until approved. */
  credited: number | null;
}

/** The list shows the newest requests; older ones are in the statement as sell entries once approved. */
const SHOWN_REQUESTS = 20;

export const walletSellRequestsQueryKey = (userId: string) => ['wallet', 'sell-requests', userId] as const;

/** The signed-in person's newest sell requests, newest first. */
export async function getSellRequests(userId: string): Promise<SellRequest[]> {
  const { data, error } = await supabase
    .from('sell_requests_with_fill')
    .select(
      'id, cryptocurrency, quantity::text, limit_price, status, date, expires_at, rejection_reason, fill_price, amount',
    )
    .eq('user_id', userId)
    .order('date', { ascending: false })
    .limit(SHOWN_REQUESTS);
  if (error) throw error;
  return data.map((row) => ({
    id: row.id,
    cryptocurrency: row.cryptocurrency,
    quantity: row.quantity,
    limitPrice: row.limit_price === null ? null : Number(row.limit_price),
    status: row.status,
    date: row.date,
    expiresAt: row.expires_at,
    rejectionReason: row.rejection_reason,
    fillPrice: row.fill_price === null ? null : Number(row.fill_price),
    credited: row.amount === null ? null : Number(row.amount),
  }));
}

export function useSellRequests(userId: string) {
  return useQuery(
    queryOptions({ queryKey: walletSellRequestsQueryKey(userId), queryFn: () => getSellRequests(userId) }),
  );
}
