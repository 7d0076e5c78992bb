import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

/** One coin a person holds, as the database derives it from the ledger (view `holdings`). */
export interface Holding {
  cryptocurrency: string;
  /** Coins held: bought - sold. */
  quantity: number;
  /** USD paid per coin on average. */
  averageCost: number;
  /** Coins a new sell request may name (held minus what pending sells reserve), as exact decimal text. */
  available: string;
}

export const walletHoldingsQueryKey = (userId: string) => ['wallet', 'holdings', userId] as const;

/** The coins the signed-in person holds now (a coin sold to the last unit is not listed). */
export async function getHoldings(userId: string): Promise<Holding[]> {
  const { data, error } = await supabase
    .from('holdings')
    .select('cryptocurrency, quantity, average_cost, available::text')
    .eq('user_id', userId)
    .gt('quantity', 0)
    .order('cryptocurrency');
  if (error) throw error;
  return data.map((row) => ({
    cryptocurrency: row.cryptocurrency ?? '',
    quantity: Number(row.quantity),
    averageCost: Number(row.average_cost),
    available: row.available ?? '0',
  }));
}

export function useHoldings(userId: string) {
  return useQuery(
    queryOptions({ queryKey: walletHoldingsQueryKey(userId), queryFn: () => getHoldings(userId) }),
  );
}
