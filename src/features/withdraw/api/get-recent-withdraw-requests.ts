import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { WithdrawRequest } from '../types';
import { withdrawRequestsErrorMessage } from './withdraw-messages';

/** The specification shows the 5 latest requests. */
export const RECENT_WITHDRAW_REQUESTS_LIMIT = 5;

export const recentWithdrawRequestsQueryKey = (userId: string) =>
  ['withdraw-requests', 'recent', userId] as const;

export async function getRecentWithdrawRequests(userId: string): Promise<WithdrawRequest[]> {
  // Explicit columns: the encrypted details are never selected (nor selectable) by a user.
  const { data, error } = await supabase
    .from('withdraw_requests')
    .select('id, amount, withdraw_method, status, date, rejection_reason')
    .eq('user_id', userId)
    .order('date', { ascending: false })
    .limit(RECENT_WITHDRAW_REQUESTS_LIMIT);
  if (error) throw new Error(withdrawRequestsErrorMessage(error));
  return data.map((row) => ({
    id: row.id,
    amount: Number(row.amount),
    withdrawMethod: row.withdraw_method,
    status: row.status,
    date: row.date,
    rejectionReason: row.rejection_reason,
  }));
}

export const recentWithdrawRequestsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: recentWithdrawRequestsQueryKey(userId),
    queryFn: () => getRecentWithdrawRequests(userId),
  });

export function useRecentWithdrawRequests(userId: string) {
  return useQuery(recentWithdrawRequestsQueryOptions(userId));
}
