import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { historyPointsOf, type HistoryPoint, type HistoryRange } from '../utils/history';

/** Every range of the person's portfolio history (a ledger change refreshes them all). */
export const portfolioHistoryQueryKey = (userId: string) => ['wallet', 'portfolio-history', userId] as const;

/**
 * The signed-in person's portfolio value over a range (RPC `portfolio_history`: the coins they held at each
 * snapshot at the prices then; 24h a point a minute, the others a point an hour or a day).
 */
export async function getPortfolioHistory(range: HistoryRange): Promise<HistoryPoint[]> {
  const { data, error } = await supabase.rpc('portfolio_history', { range });
  if (error) throw error;
  return historyPointsOf(data, (row) => row.value);
}

export function usePortfolioHistory(userId: string, range: HistoryRange, { enabled }: { enabled: boolean }) {
  return useQuery(
    queryOptions({
      queryKey: [...portfolioHistoryQueryKey(userId), range],
      queryFn: () => getPortfolioHistory(range),
      enabled,
    }),
  );
}
