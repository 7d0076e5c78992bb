import type { QueryKey } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { supabase } from '@/lib/supabase';

export interface RealtimeInvalidationOptions {
  /** A table in the `supabase_realtime` publication. */
  table: 'transactions' | 'buy_requests' | 'withdraw_requests';
  /** A Realtime filter such as `user_id=eq.<uuid>`; row-level security applies either way. */
  filter?: string;
  /** The queries whose data this table's changes make stale. */
  queryKeys: QueryKey[];
  enabled?: boolean;
}

/**
 * Keeps queries fresh from Realtime `postgres_changes`: any insert, update or delete on the table
 * invalidates the given queries. The channel is removed when the component unmounts.
 */
export function useRealtimeInvalidation({
  table,
  filter,
  queryKeys,
  enabled = true,
}: RealtimeInvalidationOptions) {
  const queryClient = useQueryClient();
  const instanceId = useId();
  // Query keys are arrays made anew on every render; their JSON is what identifies them.
  const keysJson = JSON.stringify(queryKeys);

  useEffect(() => {
    if (!enabled) return;
    const keys = JSON.parse(keysJson) as QueryKey[];
    const channel = supabase
      .channel(`${table}:${filter ?? 'all'}:${instanceId}`)
      .on('postgres_changes', { event: '*', schema: 'public', table, ...(filter ? { filter } : {}) }, () => {
        for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
      })
      .subscribe();
    return () => {
      void supabase.removeChannel(channel);
    };
  }, [table, filter, keysJson, enabled, instanceId, queryClient]);
}
