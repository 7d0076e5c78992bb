import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { termsArguments, type RecurringBuyTerms } from './create-recurring-buy';
import { recurringBuysQueryKey, type RecurringBuy } from './get-recurring-buys';

export const UPDATE_RECURRING_BUY_FAILED_MESSAGE = 'Failed to change the recurring buy. Please try again.';

/**
 * Gives one of the person's schedules new terms, from its next run (a paused one stays paused; its runs stay);
 * the database's refusals come back as they are. Setting the same terms again is harmless, so no key.
 */
export async function updateRecurringBuy({
  id,
  ...terms
}: RecurringBuyTerms & { id: string }): Promise<RecurringBuy> {
  const { data, error } = await supabase.rpc('update_recurring_buy', {
    recurring_buy_id: id,
    ...termsArguments(terms),
  });
  if (error) {
    const refusal = error.code === 'P0001' || error.code === '42501';
    throw new Error(refusal ? error.message : UPDATE_RECURRING_BUY_FAILED_MESSAGE, { cause: error });
  }
  return data;
}

export function useUpdateRecurringBuy(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRecurringBuy,
    onSettled: () => queryClient.invalidateQueries({ queryKey: recurringBuysQueryKey(userId) }),
  });
}
