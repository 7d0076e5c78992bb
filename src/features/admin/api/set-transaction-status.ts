import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import {
  INSUFFICIENT_BALANCE_MESSAGE,
  TRANSACTION_STATUS_FAILED_MESSAGE,
  writeFailureMessage,
} from './admin-messages';
import { transactionsQueryKeyRoot } from './get-transactions';

export interface TransactionStatusChange {
  transactionId: string;
  status: string;
}

/** Sets a transaction's status through `set_transaction_status`, which moves the balance in the same step. */
export async function setTransactionStatus({
  transactionId,
  status,
}: TransactionStatusChange): Promise<void> {
  const { error } = await supabase.rpc('set_transaction_status', {
    transaction_id: transactionId,
    new_status: status,
  });
  if (error) {
    throw new Error(
      writeFailureMessage(error, TRANSACTION_STATUS_FAILED_MESSAGE, [INSUFFICIENT_BALANCE_MESSAGE]),
      { cause: error },
    );
  }
}

export function useSetTransactionStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTransactionStatus,
    onSettled: () => queryClient.invalidateQueries({ queryKey: transactionsQueryKeyRoot }),
  });
}
