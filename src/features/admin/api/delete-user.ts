import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { DELETE_USER_FAILED_MESSAGE } from './admin-messages';
import { functionRefusal } from '@/lib/function-refusal';

/** Deletes a person and, through the foreign keys, everything of theirs (Edge Function `admin-delete-user`). */
export async function deleteUser(userId: string): Promise<void> {
  const { error } = await supabase.functions.invoke('admin-delete-user', { body: { userId } });
  if (error) throw new Error((await functionRefusal(error)) ?? DELETE_USER_FAILED_MESSAGE, { cause: error });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
