import type { QueryKey } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { supabase } from '@/lib/supabase';
import { invalidateOnTopicChanges, type TopicChanges } from './table-changes';

export { liveTopics, type LiveTable } from './table-changes';

export interface RealtimeInvalidationOptions extends TopicChanges {
  enabled?: boolean;
}

/**
 * Keeps the given queries fresh from a private Broadcast topic while the component is mounted (see
 * `invalidateOnTopicChanges`); it stops listening when it unmounts.
 */
export function useRealtimeInvalidation({
  topic,
  tables,
  queryKeys,
  readAgainAfterMs,
  enabled = true,
}: RealtimeInvalidationOptions) {
  const queryClient = useQueryClient();
  // Query keys and table lists are arrays made anew on every render; their JSON is what identifies them.
  const keysJson = JSON.stringify(queryKeys);
  const tablesJson = JSON.stringify(tables);

  useEffect(() => {
    if (!enabled) return;
    return invalidateOnTopicChanges(supabase, queryClient, {
      topic,
      tables: JSON.parse(tablesJson) as TopicChanges['tables'],
      queryKeys: JSON.parse(keysJson) as QueryKey[],
      readAgainAfterMs,
    });
  }, [topic, tablesJson, keysJson, readAgainAfterMs, enabled, queryClient]);
}
