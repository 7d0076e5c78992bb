import { useMutation } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

export const TWO_FACTOR_REMOVED_MESSAGE = 'Two-factor authentication removed';
export const NO_TWO_FACTOR_MESSAGE = 'This person had no two-factor authentication';
export const REMOVE_TWO_FACTOR_FAILED_MESSAGE = 'Failed to remove two-factor authentication';

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
