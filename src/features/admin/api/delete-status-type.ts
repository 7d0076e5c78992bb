import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { STATUS_TYPE_DELETE_FAILED_MESSAGE } from './admin-messages';
import { statusTypesQueryKey } from './get-status-types';

/** Removes a status type; rows already carrying it keep their text. */
export async function deleteStatusType(id: string): Promise<void> {
  // Asking for the deleted row back tells "nothing deleted" (refused by row-level security) from success.
  const { data, error } = await supabase.from('status_types').delete().eq('id', id).select('id');
  if (error || data.length === 0) throw new Error(STATUS_TYPE_DELETE_FAILED_MESSAGE, { cause: error });
}

export function useDeleteStatusType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteStatusType,
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusTypesQueryKey }),
  });
}
