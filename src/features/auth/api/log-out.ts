import { useMutation } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

export async function logOut() {
  const { error } = await supabase.auth.signOut();
  if (error) throw error;
}

export function useLogOut() {
  return useMutation({ mutationFn: logOut });
}
