import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

/** The movements a form can ask for, as `my_restrictions` names them. */
export type RestrictedMovement = 'buy' | 'sell' | 'withdraw';

export const restrictionsQueryKey = (userId: string) => ['restrictions', userId] as const;

/** What the signed-in person cannot do now, per movement, in the database's words (none: allowed). */
export async function getRestrictions(): Promise<Map<RestrictedMovement, string>> {
  const { data, error } = await supabase.rpc('my_restrictions');
  if (error) throw error;
  return new Map(
    data.flatMap((row) => (row.refusal ? [[row.movement as RestrictedMovement, row.refusal] as const] : [])),
  );
}

export function useRestrictions(userId: string) {
  return useQuery(queryOptions({ queryKey: restrictionsQueryKey(userId), queryFn: getRestrictions }));
}
