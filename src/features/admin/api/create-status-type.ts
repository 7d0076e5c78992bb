import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { STATUS_TYPE_CREATE_FAILED_MESSAGE, STATUS_TYPE_DUPLICATE_MESSAGE } from './admin-messages';
import { statusTypesQueryKey } from './get-status-types';

const UNIQUE_VIOLATION = '23505';

/** Adds a status type; a name already taken is refused by the database's unique constraint. */
export async function createStatusType(name: string): Promise<void> {
  const { error } = await supabase.from('status_types').insert({ name: name.trim() });
  if (!error) return;
  if (error.code === UNIQUE_VIOLATION) throw new Error(STATUS_TYPE_DUPLICATE_MESSAGE, { cause: error });
  // The database's own texts for a blank or built-in name ('Status "pending" is built in') are clear as they are.
  throw new Error(error.code === 'P0001' ? error.message : STATUS_TYPE_CREATE_FAILED_MESSAGE, {
    cause: error,
  });
}

export function useCreateStatusType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createStatusType,
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusTypesQueryKey }),
  });
}
