import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

export const watchlistQueryKey = (userId: string) => ['watchlist', userId] as const;

/** The coins the signed-in person starred (row-level security returns their own only). */
export async function getWatchlist(): Promise<ReadonlySet<string>> {
  const { data, error } = await supabase.from('watchlist').select('coin_id');
  if (error) throw new Error('Failed to load your watchlist', { cause: error });
  return new Set(data.map((row) => row.coin_id));
}

export function useWatchlist(userId: string) {
  return useQuery(queryOptions({ queryKey: watchlistQueryKey(userId), queryFn: getWatchlist }));
}
