import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { TRANSACTIONS_FAILED_MESSAGE } from './admin-messages';
import { pageRange, toPage, type Page } from './paging';

export interface AdminTransaction {
  id: string;
  userName: string;
  email: string;
  type: 'deposit' | 'sell' | 'withdraw' | 'buy';
  amount: number;
  status: string;
  cryptocurrency: string | null;
  date: string;
}

export const transactionsQueryKeyRoot = ['admin', 'transactions'] as const;
export const transactionsQueryKey = (page: number) => [...transactionsQueryKeyRoot, page] as const;

/** Every transaction with the person's name, newest first, one page at a time. */
export async function getTransactions(page: number): Promise<Page<AdminTransaction>> {
  const [from, to] = pageRange(page);
  const answer = await supabase
    .from('transactions_with_user')
    .select('id, full_name, email, type, amount, status, cryptocurrency, date', { count: 'exact' })
    .order('date', { ascending: false })
    .order('id')
    .range(from, to);
  return toPage(answer, TRANSACTIONS_FAILED_MESSAGE, (row) => ({
    id: row.id,
    userName: row.full_name ?? '',
    email: row.email ?? '',
    type: row.type,
    amount: Number(row.amount),
    status: row.status,
    cryptocurrency: row.cryptocurrency,
    date: row.date,
  }));
}

export const transactionsQueryOptions = (page: number) =>
  queryOptions({ queryKey: transactionsQueryKey(page), queryFn: () => getTransactions(page) });

export function useTransactions(page: number) {
  return useQuery({ ...transactionsQueryOptions(page), placeholderData: keepPreviousData });
}
