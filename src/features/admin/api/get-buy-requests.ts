import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { BUY_REQUESTS_FAILED_MESSAGE } from './admin-messages';
import { pageRange, toPage, type Page } from './paging';

export interface AdminBuyRequest {
  id: string;
  userName: string;
  email: string;
  cryptocurrency: string;
  amount: number;
  status: 'pending' | 'approved' | 'rejected';
  date: string;
}

export const buyRequestsQueryKeyRoot = ['admin', 'buy-requests'] as const;
export const buyRequestsQueryKey = (page: number) => [...buyRequestsQueryKeyRoot, page] as const;

/** The buy request queue with the person's name, newest first, one page at a time. */
export async function getBuyRequests(page: number): Promise<Page<AdminBuyRequest>> {
  const [from, to] = pageRange(page);
  const answer = await supabase
    .from('buy_requests_with_user')
    .select('id, full_name, email, cryptocurrency, amount, status, date', { count: 'exact' })
    .order('date', { ascending: false })
    .order('id')
    .range(from, to);
  return toPage(answer, BUY_REQUESTS_FAILED_MESSAGE, (row) => ({
    id: row.id,
    userName: row.full_name ?? '',
    email: row.email ?? '',
    cryptocurrency: row.cryptocurrency,
    amount: Number(row.amount),
    status: row.status,
    date: row.date,
  }));
}

export const buyRequestsQueryOptions = (page: number) =>
  queryOptions({ queryKey: buyRequestsQueryKey(page), queryFn: () => getBuyRequests(page) });

export function useBuyRequests(page: number) {
  return useQuery({ ...buyRequestsQueryOptions(page), placeholderData: keepPreviousData });
}
