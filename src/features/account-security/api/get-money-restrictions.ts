import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

export const moneyRestrictionsQueryKey = ['account', 'money-restrictions'] as const;

/**
 * What the person's lock ("this wasn't me") or security hold refuses now, in the money gate's own words for
 * them (`my_money_restrictions`); null when nothing is refused.
 */
export interface MoneyRestrictions {
  /** Why withdrawals are refused (a lock or a hold). */
  withdrawals: string | null;
  /** Why buying and selling are refused (a lock only). */
  buyingAndSelling: string | null;
  /** When a security hold ends by itself; null for a lock, which only an admin lifts. */
  holdUntil: string | null;
}

export async function getMoneyRestrictions(): Promise<MoneyRestrictions | null> {
  const { data, error } = await supabase.rpc('my_money_restrictions');
  if (error) throw error;
  const [row] = data;
  if (!row) return null;
  return {
    withdrawals: row.withdrawals,
    buyingAndSelling: row.buying_and_selling,
    holdUntil: row.hold_until,
  };
}

export function useMoneyRestrictions() {
  return useQuery(queryOptions({ queryKey: moneyRestrictionsQueryKey, queryFn: getMoneyRestrictions }));
}
