import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { LIMITS_NEGATIVE_MESSAGE, LIMITS_ORDER_MESSAGE, type TransactionLimits } from '@domain/limits.ts';
import { transactionLimitsQueryKey } from '@/lib/transaction-limits';
import { LIMITS_UPDATE_FAILED_MESSAGE, writeFailureMessage } from './admin-messages';

/** Sets the global limits (the single row of `transaction_limits`); the database checks them again. */
export async function updateTransactionLimits({ minAmount, maxAmount }: TransactionLimits): Promise<void> {
  const { data, error } = await supabase
    .from('transaction_limits')
    .update({ min_amount: minAmount, max_amount: maxAmount })
    .eq('id', true)
    .select('min_amount');
  if (error || data.length === 0) {
    throw new Error(
      writeFailureMessage(error, LIMITS_UPDATE_FAILED_MESSAGE, [
        LIMITS_ORDER_MESSAGE,
        LIMITS_NEGATIVE_MESSAGE,
      ]),
      { cause: error },
    );
  }
}

export function useUpdateTransactionLimits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTransactionLimits,
    onSettled: () => queryClient.invalidateQueries({ queryKey: transactionLimitsQueryKey }),
  });
}
