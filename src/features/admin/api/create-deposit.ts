import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createSubmissions, isLostRestAnswer, LostAnswerError } from '@/lib/idempotent-submission';
import { supabase } from '@/lib/supabase';
import { DEPOSIT_FAILED_MESSAGE } from './admin-messages';
import { transactions } from './get-transactions';

export interface NewDeposit {
  userId: string;
  amount: number;
}

/**
 * A pending deposit for the person, once per idempotency key (a retried submission answers the same
 * deposit); it counts towards the balance once an admin marks it complete.
 */
export async function createDeposit({ userId, amount }: NewDeposit, idempotencyKey: string): Promise<void> {
  const { error, status } = await supabase.rpc('create_deposit', {
    user_id: userId,
    amount,
    idempotency_key: idempotencyKey,
  });
  if (error && isLostRestAnswer(status)) throw new LostAnswerError(error);
  if (error) throw new Error(DEPOSIT_FAILED_MESSAGE, { cause: error });
}

/** The deposit form's submissions: a lost answer is retried with the same key. */
const submitDeposit = createSubmissions(createDeposit);

export function useCreateDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitDeposit,
    onSettled: () => queryClient.invalidateQueries({ queryKey: transactions.keyRoot }),
  });
}
