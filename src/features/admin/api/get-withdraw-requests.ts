import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { WITHDRAW_REQUESTS_FAILED_MESSAGE } from './admin-messages';
import { pageRange, toPage, type Page } from './paging';

export interface AdminWithdrawRequest {
  id: string;
  userName: string;
  email: string;
  amount: number;
  withdrawMethod: 'bank' | 'card' | 'wallet';
  status: string;
  date: string;
}

export const withdrawRequestsQueryKeyRoot = ['admin', 'withdraw-requests'] as const;
export const withdrawRequestsQueryKey = (page: number) => [...withdrawRequestsQueryKeyRoot, page] as const;

/** The withdraw request queue with the person's name, newest first; the encrypted details are never read. */
export async function getWithdrawRequests(page: number): Promise<Page<AdminWithdrawRequest>> {
  const [from, to] = pageRange(page);
  const answer = await supabase
    .from('withdraw_requests_with_user')
    .select('id, full_name, email, amount, withdraw_method, status, date', { count: 'exact' })
    .order('date', { ascending: false })
    .order('id')
    .range(from, to);
  return toPage(answer, WITHDRAW_REQUESTS_FAILED_MESSAGE, (row) => ({
    id: row.id,
    userName: row.full_name ?? '',
    email: row.email ?? '',
    amount: Number(row.amount),
    withdrawMethod: row.withdraw_method,
    status: row.status,
    date: row.date,
  }));
}

export const withdrawRequestsQueryOptions = (page: number) =>
  queryOptions({ queryKey: withdrawRequestsQueryKey(page), queryFn: () => getWithdrawRequests(page) });

export function useWithdrawRequests(page: number) {
  return useQuery({ ...withdrawRequestsQueryOptions(page), placeholderData: keepPreviousData });
}
