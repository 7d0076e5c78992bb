import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { recurringBuysQueryKey } from './get-recurring-buys';

export const CHANGE_RECURRING_BUY_FAILED_MESSAGE = 'Failed to change the recurring buy. Please try again.';

export type RecurringBuyChange = { id: string; action: 'pause' | 'resume' | 'delete' };

/** Pauses, resumes (from the next occurrence after now) or deletes one of the person's schedules. */
export async function changeRecurringBuy({ id, action }: RecurringBuyChange): Promise<void> {
  const { error } =
    action === 'delete'
      ? await supabase.from('recurring_buys').delete().eq('id', id)
      : await supabase.rpc('set_recurring_buy_paused', { recurring_buy_id: id, paused: action === 'pause' });
  if (error) {
    const refusal = error.code === 'P0001' || error.code === '42501';
    throw new Error(refusal ? error.message : CHANGE_RECURRING_BUY_FAILED_MESSAGE, { cause: error });
  }
}

export function useChangeRecurringBuy(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeRecurringBuy,
    onSettled: () => queryClient.invalidateQueries({ queryKey: recurringBuysQueryKey(userId) }),
  });
}
