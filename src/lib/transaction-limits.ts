import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LimitsSettings } from '@domain/limits.ts';
import { supabase } from '@/lib/supabase';

export const transactionLimitsQueryKey = ['transaction-limits'] as const;

/**
 * The global limits in USD; 0 to 0 until an admin sets them (specification §9). With them the four-eyes
 * threshold, which Settings edits beside them (1,000 USD unless changed).
 */
export async function getTransactionLimits(): Promise<LimitsSettings> {
  const { data, error } = await supabase
    .from('transaction_limits')
    .select('min_amount, max_amount, second_admin_above')
    .maybeSingle();
  if (error) throw error;
  return {
    minAmount: Number(data?.min_amount ?? 0),
    maxAmount: Number(data?.max_amount ?? 0),
    secondAdminAbove: Number(data?.second_admin_above ?? 1000),
  };
}

export const transactionLimitsQueryOptions = queryOptions({
  queryKey: transactionLimitsQueryKey,
  queryFn: getTransactionLimits,
});

export function useTransactionLimits() {
  return useQuery(transactionLimitsQueryOptions);
}
