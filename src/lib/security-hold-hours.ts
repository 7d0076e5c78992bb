import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

export const securityHoldHoursQueryKey = ['security-hold-hours'] as const;

/** How long withdrawals wait after a password, e-mail or two-factor change (24 unless an admin changed it). */
export async function getSecurityHoldHours(): Promise<number> {
  const { data, error } = await supabase
    .from('transaction_limits')
    .select('security_hold_hours')
    .maybeSingle();
  if (error) throw error;
  return data?.security_hold_hours ?? 24;
}

export function useSecurityHoldHours() {
  return useQuery(queryOptions({ queryKey: securityHoldHoursQueryKey, queryFn: getSecurityHoldHours }));
}
