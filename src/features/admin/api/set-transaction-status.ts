import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createSubmissions, isLostRestAnswer, LostAnswerError } from '@/lib/idempotent-submission';
import { supabase } from '@/lib/supabase';
import {
  INSUFFICIENT_BALANCE_MESSAGE,
  TRANSACTION_STATUS_FAILED_MESSAGE,
  writeFailureMessage,
} from './admin-messages';
import { transactions } from './get-transactions';

export interface TransactionStatusChange {
  transactionId: string;
  status: string;
}

/**
 * Sets a transaction's status through `set_transaction_status`, which moves the balance in the same step,
 * once per idempotency key (a retry after a lost answer moves no money twice).
 */
export async function setTransactionStatus(
  { transactionId, status }: TransactionStatusChange,
  idempotencyKey: string,
): Promise<void> {
  const { error, status: httpStatus } = await supabase.rpc('set_transaction_status', {
    transaction_id: transactionId,
    new_status: status,
    idempotency_key: idempotencyKey,
  });
  if (error && isLostRestAnswer(httpStatus)) throw new LostAnswerError(error);
  if (error) {
    throw new Error(
      writeFailureMessage(error, TRANSACTION_STATUS_FAILED_MESSAGE, [INSUFFICIENT_BALANCE_MESSAGE]),
      { cause: error },
    );
  }
}

/** The admin's transaction status changes: a lost answer is retried with the same key. */
const submitTransactionStatus = createSubmissions(setTransactionStatus);

export function useSetTransactionStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitTransactionStatus,
    onSettled: () => queryClient.invalidateQueries({ queryKey: transactions.keyRoot }),
  });
}
