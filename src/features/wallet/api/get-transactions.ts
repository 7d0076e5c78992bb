import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { WalletTransaction } from '../types';

export const walletTransactionsQueryKey = (userId: string) => ['wallet', 'transactions', userId] as const;

/** The person's own ledger, newest first; row-level security also limits it to their rows. */
export async function getWalletTransactions(userId: string): Promise<WalletTransaction[]> {
  const { data, error } = await supabase
    .from('transactions')
    .select('id, type, amount, status, date, cryptocurrency')
    .eq('user_id', userId)
    .order('date', { ascending: false });
  if (error) throw error;
  // numeric arrives as a number or, past double precision, a string; the spec parses strings.
  return data.map((row) => ({ ...row, amount: Number(row.amount) }));
}

export function useWalletTransactions(userId: string) {
  return useQuery(
    queryOptions({
      queryKey: walletTransactionsQueryKey(userId),
      queryFn: () => getWalletTransactions(userId),
    }),
  );
}
