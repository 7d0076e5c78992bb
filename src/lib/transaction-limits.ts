import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TransactionLimits } from '@domain/limits.ts';
import { supabase } from '@/lib/supabase';

export const transactionLimitsQueryKey = ['transaction-limits'] as const;

/** The global limits in USD; 0 to 0 until an admin sets them (specification §9). */
export async function getTransactionLimits(): Promise<TransactionLimits> {
  const { data, error } = await supabase
    .from('transaction_limits')
    .select('min_amount, max_amount')
    .maybeSingle();
  if (error) throw error;
  return { minAmount: Number(data?.min_amount ?? 0), maxAmount: Number(data?.max_amount ?? 0) };
}

export const transactionLimitsQueryOptions = queryOptions({
  queryKey: transactionLimitsQueryKey,
  queryFn: getTransactionLimits,
});

export function useTransactionLimits() {
  return useQuery(transactionLimitsQueryOptions);
}
