import { useQuery } from '@tanstack/react-query';
import type { Factor } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';

export const totpFactorQueryKey = (userId: string) => ['two-factor', userId] as const;

/** The person's verified authenticator app (TOTP factor), or null when two-factor authentication is off. */
export async function getTotpFactor(): Promise<Factor | null> {
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw error;
  return data.totp[0] ?? null;
}

export function useTotpFactor(userId: string) {
  return useQuery({ queryKey: totpFactorQueryKey(userId), queryFn: getTotpFactor });
}
