import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { HOLDING_PERIOD_UPDATE_FAILED_MESSAGE } from './admin-messages';

const holdingPeriodQueryKey = ['admin', 'long-term-after-days'] as const;

/** Days a coin must be held for its sale to be long-term in the gains report (`long_term_after_days`). */
export async function getLongTermAfterDays(): Promise<number> {
  const { data, error } = await supabase.from('transaction_limits').select('long_term_after_days').single();
  if (error) throw error;
  return data.long_term_after_days;
}

export function useLongTermAfterDays() {
  return useQuery(queryOptions({ queryKey: holdingPeriodQueryKey, queryFn: getLongTermAfterDays }));
}

/** Sets the threshold; the database checks its range again (1 to 3660) and only admins at aal2 may. */
export async function updateLongTermAfterDays(days: number): Promise<void> {
  const { data, error } = await supabase
    .from('transaction_limits')
    .update({ long_term_after_days: days })
    .eq('id', true)
    .select('long_term_after_days');
  if (error || data.length === 0) throw new Error(HOLDING_PERIOD_UPDATE_FAILED_MESSAGE, { cause: error });
}

export function useUpdateLongTermAfterDays() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLongTermAfterDays,
    onSettled: () => queryClient.invalidateQueries({ queryKey: holdingPeriodQueryKey }),
  });
}
