import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

export interface PendingCounts {
  buyRequests: number;
  withdrawRequests: number;
}

export const pendingCountsQueryKey = ['admin', 'pending-counts'] as const;

/** How many requests wait for a decision in each queue: two count-only requests (no rows are sent). */
export async function getPendingCounts(): Promise<PendingCounts> {
  const [buy, withdraw] = await Promise.all([
    supabase.from('buy_requests').select('id', { count: 'exact', head: true }).eq('status', 'pending'),
    supabase.from('withdraw_requests').select('id', { count: 'exact', head: true }).eq('status', 'pending'),
  ]);
  const error = buy.error ?? withdraw.error;
  if (error) throw new Error('Failed to count pending requests', { cause: error });
  return { buyRequests: buy.count ?? 0, withdrawRequests: withdraw.count ?? 0 };
}

export const pendingCountsQueryOptions = queryOptions({
  queryKey: pendingCountsQueryKey,
  queryFn: getPendingCounts,
});

export function usePendingCounts() {
  return useQuery(pendingCountsQueryOptions);
}
