import type { QueryKey } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { supabase } from '@/lib/supabase';
import { invalidateOnTableChanges, type TableChanges } from './table-changes';

export interface RealtimeInvalidationOptions extends TableChanges {
  enabled?: boolean;
}

/**
 * Keeps the given queries fresh from Realtime while the component is mounted (see
 * `invalidateOnTableChanges`); the channel is removed when it unmounts.
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
    return invalidateOnTableChanges(supabase, queryClient, `${table}:${filter ?? 'all'}:${instanceId}`, {
      table,
      filter,
      queryKeys: JSON.parse(keysJson) as QueryKey[],
    });
  }, [table, filter, keysJson, enabled, instanceId, queryClient]);
}
