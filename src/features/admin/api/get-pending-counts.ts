import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

export interface PendingCounts {
  buyRequests: number;
  withdrawRequests: number;
  sellRequests: number;
}

export const pendingCountsQueryKey = ['admin', 'pending-counts'] as const;

/** How many requests wait for a decision in each queue: one call, counted in SQL (no rows are sent). */
export async function getPendingCounts(): Promise<PendingCounts> {
  const { data, error } = await supabase.rpc('admin_pending_counts').single();
  if (error) throw new Error('Failed to count pending requests', { cause: error });
  return {
    buyRequests: data.buy_requests,
    withdrawRequests: data.withdraw_requests,
    sellRequests: data.sell_requests,
  };
}

export const pendingCountsQueryOptions = queryOptions({
  queryKey: pendingCountsQueryKey,
  queryFn: getPendingCounts,
});

export function usePendingCounts() {
  return useQuery(pendingCountsQueryOptions);
}
