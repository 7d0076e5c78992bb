import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '@/lib/auth';
import { liveTopics, useRealtimeInvalidation } from '@/lib/realtime';
import { supabase } from '@/lib/supabase';
import { databaseRefusal } from './address-book';

export const freezeQueryKey = ['protections', 'freeze'] as const;

export interface FreezeState {
  frozen: boolean;
  /** When an unfreeze the person asked for takes effect; null when none is pending. */
  unfreezeAt: string | null;
  delayHours: number;
}

/** The person's freeze as the database keeps it (no row: never frozen, a 24-hour delay). */
export async function getFreezeState(): Promise<FreezeState> {
  const { data, error } = await supabase
    .from('account_freezes')
    .select('frozen_at, unfreeze_at, unfreeze_delay_hours')
    .maybeSingle();
  if (error) throw error;
  const unfreezeAt = data?.unfreeze_at ?? null;
  const frozen = Boolean(data?.frozen_at) && (unfreezeAt === null || Date.parse(unfreezeAt) > Date.now());
  return { frozen, unfreezeAt: frozen ? unfreezeAt : null, delayHours: data?.unfreeze_delay_hours ?? 24 };
}

/** Live: read again when the freeze changes anywhere (another session, the e-mail's link, two admins). */
export function useFreezeState() {
  const { user } = useSession();
  useRealtimeInvalidation({
    topic: liveTopics.account(user?.id ?? ''),
    tables: ['account_freezes'],
    queryKeys: [freezeQueryKey],
    enabled: user !== null,
  });
  return useQuery(queryOptions({ queryKey: freezeQueryKey, queryFn: getFreezeState }));
}

function useFreezeChange<Input>(change: (input: Input) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: freezeQueryKey }),
  });
}

export const useFreezeMyAccount = () =>
  useFreezeChange(async () => {
    const { error } = await supabase.rpc('freeze_my_account');
    if (error) throw databaseRefusal(error);
  });

export const useAskToUnfreeze = () =>
  useFreezeChange(async (password: string) => {
    const { error } = await supabase.rpc('ask_to_unfreeze', { password });
    if (error) throw databaseRefusal(error);
  });

export const useSetUnfreezeDelay = () =>
  useFreezeChange(async (hours: number) => {
    const { error } = await supabase.rpc('set_unfreeze_delay_hours', { unfreeze_delay_hours: hours });
    if (error) throw databaseRefusal(error);
  });
