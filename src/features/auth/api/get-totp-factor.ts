import { useQuery } from '@tanstack/react-query';
import type { Factor } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';

export const totpFactorQueryKey = (userId: string) => ['two-factor', userId] as const;

/**
 * The person's verified authenticator apps (TOTP factors), oldest first: none when two-factor authentication
 * is off, a second when they added a backup.
 */
export async function getTotpFactors(): Promise<Factor[]> {
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw error;
  return data.totp;
}

export function useTotpFactors(userId: string) {
  return useQuery({ queryKey: totpFactorQueryKey(userId), queryFn: getTotpFactors });
}
