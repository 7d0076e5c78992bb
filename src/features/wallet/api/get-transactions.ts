import { useInfiniteQuery } from '@tanstack/react-query';
import { pagedListOptions, pageRange, toPage, type RowsPage } from '@/lib/paged-list';
import { supabase } from '@/lib/supabase';
import type { WalletTransaction } from '../types';

export const walletTransactionsQueryKey = (userId: string) => ['wallet', 'transactions', userId] as const;

/** One page of the person's own ledger, newest first; row-level security also limits it to their rows. */
export async function getWalletTransactions(
  userId: string,
  page: number,
): Promise<RowsPage<WalletTransaction>> {
  const { data, error } = await supabase
    .from('transactions')
    .select('id, type, amount, status, date, cryptocurrency')
    .eq('user_id', userId)
    .order('date', { ascending: false })
    .order('id', { ascending: false })
    .range(...pageRange(page));
  if (error) throw error;
  // numeric arrives as a number or, past double precision, a string; the spec parses strings.
  return toPage(data.map((row) => ({ ...row, amount: Number(row.amount) })));
}

/** The ledger a page at a time (`data`: the rows loaded so far; `fetchNextPage` for older ones). */
export function useWalletTransactions(userId: string) {
  return useInfiniteQuery({
    queryKey: walletTransactionsQueryKey(userId),
    queryFn: ({ pageParam }) => getWalletTransactions(userId, pageParam),
    ...pagedListOptions<WalletTransaction>(),
  });
}
