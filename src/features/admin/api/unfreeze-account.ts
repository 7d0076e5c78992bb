import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import {
  ASKED_ALREADY_MESSAGE,
  NOT_FROZEN_MESSAGE,
  UNFREEZE_FAILED_MESSAGE,
  writeFailureMessage,
} from './admin-messages';
import { frozenAccounts } from './get-frozen-accounts';

/**
 * Two admins unfreeze together (`unfreeze_by_admins`, maker-checker): the first call only asks (answers
 * false), another admin's confirms and unfreezes (true). The same admin cannot do both: the database refuses.
 */
export async function unfreezeAccount(userId: string): Promise<{ unfrozen: boolean }> {
  const { data, error } = await supabase.rpc('unfreeze_by_admins', { user_id: userId });
  if (error) {
    throw new Error(
      writeFailureMessage(error, UNFREEZE_FAILED_MESSAGE, [NOT_FROZEN_MESSAGE, ASKED_ALREADY_MESSAGE]),
      { cause: error },
    );
  }
  return { unfrozen: data };
}

export function useUnfreezeAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unfreezeAccount,
    onSettled: () => queryClient.invalidateQueries({ queryKey: frozenAccounts.keyRoot }),
  });
}
