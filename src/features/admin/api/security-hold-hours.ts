import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import {
  writeFailureMessage,
  SECURITY_HOLD_RANGE_MESSAGE,
  SECURITY_HOLD_UPDATE_FAILED_MESSAGE,
} from './admin-messages';

const securityHoldHoursQueryKey = ['admin', 'security-hold-hours'] as const;

/** Hours after a password, e-mail or two-factor change during which withdrawals are refused. */
export async function getSecurityHoldHours(): Promise<number> {
  const { data, error } = await supabase.from('transaction_limits').select('security_hold_hours').single();
  if (error) throw error;
  return data.security_hold_hours;
}

export function useSecurityHoldHours() {
  return useQuery(queryOptions({ queryKey: securityHoldHoursQueryKey, queryFn: getSecurityHoldHours }));
}

/** Sets the hold (beside the transaction limits); the database checks the range again and audits it. */
export async function updateSecurityHoldHours(hours: number): Promise<void> {
  const { data, error } = await supabase
    .from('transaction_limits')
    .update({ security_hold_hours: hours })
    .eq('id', true)
    .select('security_hold_hours');
  if (error || data.length === 0) {
    throw new Error(
      writeFailureMessage(error, SECURITY_HOLD_UPDATE_FAILED_MESSAGE, [SECURITY_HOLD_RANGE_MESSAGE]),
      { cause: error },
    );
  }
}

export function useUpdateSecurityHoldHours() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSecurityHoldHours,
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityHoldHoursQueryKey }),
  });
}
