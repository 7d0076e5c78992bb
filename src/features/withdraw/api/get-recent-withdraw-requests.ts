import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { WithdrawRequest } from '../types';
import { SYSTEM_UPDATING_MESSAGE, withdrawRequestsFailedMessage } from './withdraw-messages';

/** The specification shows the 5 latest requests. */
export const RECENT_WITHDRAW_REQUESTS_LIMIT = 5;

export const recentWithdrawRequestsQueryKey = (userId: string) =>
  ['withdraw-requests', 'recent', userId] as const;

/**
 * Postgres and PostgREST codes for a table, view or function that does not exist (yet): what a
 * half-applied migration looks like, the counterpart of the specification's missing index.
 */
const missingObjectCodes = new Set(['42P01', '42883', 'PGRST202', 'PGRST205']);

export function withdrawRequestsErrorMessage(error: { code?: string; message: string }): string {
  return error.code && missingObjectCodes.has(error.code)
    ? SYSTEM_UPDATING_MESSAGE
    : withdrawRequestsFailedMessage(error.message);
}

export async function getRecentWithdrawRequests(userId: string): Promise<WithdrawRequest[]> {
  // Explicit columns: the encrypted details are never selected (nor selectable) by a user.
  const { data, error } = await supabase
    .from('withdraw_requests')
    .select('id, amount, withdraw_method, status, date')
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
