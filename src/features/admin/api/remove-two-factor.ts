import { useMutation } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { REMOVE_TWO_FACTOR_FAILED_MESSAGE } from './admin-messages';

/**
 * Recovery for a person who lost their authenticator: `remove_two_factor` removes their factors and records
 * it in the audit log; answers how many were removed.
 */
export async function removeTwoFactor(userId: string): Promise<number> {
  const { data, error } = await supabase.rpc('remove_two_factor', { user_id: userId });
  if (error) throw new Error(REMOVE_TWO_FACTOR_FAILED_MESSAGE, { cause: error });
  return data;
}

export function useRemoveTwoFactor() {
  return useMutation({ mutationFn: removeTwoFactor });
}
