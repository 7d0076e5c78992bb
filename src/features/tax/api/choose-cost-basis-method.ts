import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { taxSettingsQueryKey, type CostBasisMethod } from './get-tax-settings';

export const CHOOSE_METHOD_FAILED_MESSAGE = 'Failed to save your cost basis method. Please try again.';

/** Chooses the method from the next tax year on; answers that year. */
export async function chooseCostBasisMethod(method: CostBasisMethod): Promise<number> {
  const { data, error } = await supabase.rpc('choose_cost_basis_method', { method });
  if (error) throw new Error(CHOOSE_METHOD_FAILED_MESSAGE, { cause: error });
  return data;
}

export function useChooseCostBasisMethod(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: chooseCostBasisMethod,
    onSettled: () => queryClient.invalidateQueries({ queryKey: taxSettingsQueryKey(userId) }),
  });
}
