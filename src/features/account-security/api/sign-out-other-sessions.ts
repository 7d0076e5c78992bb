import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { sessionsQueryKey } from './list-my-sessions';

/**
 * Ends every session of the person but this one (GoTrue's `POST /logout?scope=others`): the other devices'
 * refresh tokens stop working at once, and their access tokens at the latest when they expire.
 */
export async function signOutOtherSessions(): Promise<void> {
  const { error } = await supabase.auth.signOut({ scope: 'others' });
  if (error) throw error;
}

export function useSignOutOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOutOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
