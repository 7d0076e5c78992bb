import { useMutation } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

export const LOG_OUT_SUCCEEDED_MESSAGE = 'Logged out successfully';
export const LOG_OUT_FAILED_MESSAGE = 'Logout failed. Please try again.';

export async function logOut() {
  const { error } = await supabase.auth.signOut();
  if (error) throw error;
}

export function useLogOut() {
  return useMutation({ mutationFn: logOut });
}
