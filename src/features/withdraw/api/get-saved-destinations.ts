import { queryOptions, useQuery } from '@tanstack/react-query';
import { withdrawMethodLabels, type WithdrawMethod } from '@domain/withdrawal.ts';
import { supabase } from '@/lib/supabase';

export const savedDestinationsQueryKey = (userId: string) =>
  ['withdraw', 'saved-destinations', userId] as const;

export interface PayToChoice {
  id: string;
  /** "Salary account · Bank transfer ending in 6789". */
  name: string;
  method: WithdrawMethod;
  /** When it becomes usable; null once it is. */
  waitsUntil: string | null;
}

export interface PayToChoices {
  saved: PayToChoice[];
  /** With the allowlist in force, money goes only to usable saved destinations: no typed details. */
  allowlistInForce: boolean;
}

/** The address book as the withdraw form offers it: by label and last 4 characters. */
export async function getSavedDestinations(): Promise<PayToChoices> {
  const [destinations, rules] = await Promise.all([
    supabase
      .from('payout_destinations')
      .select('id, label, withdraw_method, last4, usable_at')
      .is('removed_at', null)
      .order('label'),
    supabase.rpc('my_payout_rules').single(),
  ]);
  if (destinations.error) throw destinations.error;
  if (rules.error) throw rules.error;
  return {
    saved: destinations.data.map((row) => ({
      id: row.id,
      name: `${row.label} · ${withdrawMethodLabels[row.withdraw_method]} ending in ${row.last4}`,
      method: row.withdraw_method,
      waitsUntil: Date.parse(row.usable_at) > Date.now() ? row.usable_at : null,
    })),
    allowlistInForce: rules.data.allowlist_in_force,
  };
}

export function useSavedDestinations(userId: string) {
  return useQuery(
    queryOptions({ queryKey: savedDestinationsQueryKey(userId), queryFn: getSavedDestinations }),
  );
}
