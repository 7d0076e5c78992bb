import type { SupabaseClient } from '@supabase/supabase-js';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Database } from '@/types/database';

export interface TableChanges {
  /** A table in the `supabase_realtime` publication. */
  table: 'transactions' | 'buy_requests' | 'sell_requests' | 'withdraw_requests' | 'notifications';
  /** A Realtime filter such as `user_id=eq.<uuid>`; row-level security applies either way. */
  filter?: string;
  /** The queries whose data this table's changes make stale. */
  queryKeys: QueryKey[];
}

/**
 * Reads the query again once a channel has joined. Changes committed before the join (while the page
 * loaded, or while a dropped connection was being re-established) are never sent, so data read before
 * then may miss them. A read already under way may also predate the join: it is left to finish (cancelling
 * it would delay the page's first rows) and followed by a new one.
 */
async function readAgainAfterJoin(queryClient: QueryClient, queryKey: QueryKey) {
  if (queryClient.isFetching({ queryKey }) > 0) {
    await queryClient.refetchQueries({ queryKey, type: 'active' }, { cancelRefetch: false });
  }
  // Only rows that were read can be out of date; a failed read keeps its error on screen rather than
  // loading again (a query without data restarts from its loading state).
  await queryClient.invalidateQueries({ queryKey, predicate: (query) => query.state.status === 'success' });
}

/**
 * Keeps queries fresh from Realtime `postgres_changes` on one channel: any insert, update or delete on
 * the table invalidates the given queries, and so does each (re)join of the channel, which covers what
 * changed before it — including the rejoin after the server reports a gap (CHANNEL_ERROR: Postgres or
 * Realtime restarted, a change could not be checked). Returns the function that removes the channel.
 */
export function invalidateOnTableChanges(
  client: SupabaseClient<Database>,
  queryClient: QueryClient,
  channelName: string,
  { table, filter, queryKeys }: TableChanges,
): () => void {
  const channel = client
    .channel(channelName)
    .on('postgres_changes', { event: '*', schema: 'public', table, ...(filter ? { filter } : {}) }, () => {
      for (const queryKey of queryKeys) void queryClient.invalidateQueries({ queryKey });
    })
    .subscribe((status) => {
      if (status !== 'SUBSCRIBED') return;
      for (const queryKey of queryKeys) void readAgainAfterJoin(queryClient, queryKey);
    });
  return () => {
    void client.removeChannel(channel);
  };
}
