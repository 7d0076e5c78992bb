import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { DEPOSIT_FAILED_MESSAGE } from './admin-messages';
import { transactionsQueryKeyRoot } from './get-transactions';

export interface NewDeposit {
  userId: string;
  amount: number;
}

/** A pending deposit for the person; it counts towards the balance once an admin marks it complete. */
export async function createDeposit({ userId, amount }: NewDeposit): Promise<void> {
  const { error } = await supabase
    .from('transactions')
    .insert({ user_id: userId, type: 'deposit', amount, status: 'pending' });
  if (error) throw new Error(DEPOSIT_FAILED_MESSAGE, { cause: error });
}

export function useCreateDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDeposit,
    onSettled: () => queryClient.invalidateQueries({ queryKey: transactionsQueryKeyRoot }),
  });
}
