import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { historyPointsOf, type HistoryPoint, type HistoryRange } from '../utils/history';

export const priceHistoryQueryKey = (cryptocurrency: string, range: HistoryRange) =>
  ['wallet', 'price-history', cryptocurrency, range] as const;

/** A coin's USD price over a range, from the server's snapshots (RPC `price_history`). */
export async function getPriceHistory(cryptocurrency: string, range: HistoryRange): Promise<HistoryPoint[]> {
  const { data, error } = await supabase.rpc('price_history', { cryptocurrency, range });
  if (error) throw error;
  return historyPointsOf(data, (row) => row.price);
}

export function usePriceHistory(
  cryptocurrency: string,
  range: HistoryRange,
  { enabled }: { enabled: boolean },
) {
  return useQuery(
    queryOptions({
      queryKey: priceHistoryQueryKey(cryptocurrency, range),
      queryFn: () => getPriceHistory(cryptocurrency, range),
      enabled,
    }),
  );
}
