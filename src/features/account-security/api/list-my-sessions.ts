import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

export const sessionsQueryKey = ['account', 'sessions'] as const;

export interface SignedInSession {
  id: string;
  userAgent: string | null;
  ip: string | null;
  lastActiveAt: string;
  isCurrent: boolean;
}

/** The person's signed-in sessions (`list_my_sessions`: their own only), this one first. */
export async function listMySessions(): Promise<SignedInSession[]> {
  const { data, error } = await supabase.rpc('list_my_sessions');
  if (error) throw error;
  return data.map((session) => ({
    id: session.id,
    userAgent: session.user_agent,
    ip: session.ip,
    lastActiveAt: session.last_active_at,
    isCurrent: session.is_current,
  }));
}

export function useMySessions() {
  return useQuery(queryOptions({ queryKey: sessionsQueryKey, queryFn: listMySessions }));
}
