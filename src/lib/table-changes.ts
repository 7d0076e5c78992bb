import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { Database } from '@/types/database';
import { afterDelayWhenIdle } from './when-idle';

/**
 * The private Broadcast topics the database writes to (supabase/schemas/22-broadcast-topics.sql): a
 * person's requests and transactions; a person's notifications, sessions, lock, security hold, freeze and security
 * log; and every request, second approval, lock, hold and freeze for admins at aal2. Who may join which is decided by the policies
 * on `realtime.messages` when the channel joins.
 */
export const liveTopics = {
  wallet: (userId: string) => `user:${userId}:wallet`,
  account: (userId: string) => `user:${userId}:account`,
  adminQueues: 'admin:queues',
} as const;

/** The tables whose changes are broadcast; each broadcast's event is its table's name. */
export type LiveTable =
  | 'transactions'
  | 'buy_requests'
  | 'sell_requests'
  | 'withdraw_requests'
  | 'notifications'
  | 'sessions'
  | 'second_approvals'
  | 'withdrawal_locks'
  | 'security_holds'
  | 'security_log'
  | 'account_freezes';

export interface TopicChanges {
  /** A topic of `liveTopics`. */
  topic: string;
  /** The tables whose changes make the queries stale. */
  tables: readonly LiveTable[];
  /** The queries whose data these changes make stale. */
  queryKeys: QueryKey[];
  /**
   * Read once more this long after the first change of a burst. A broadcast can arrive before the
   * transaction that sent it is visible to a new read (Realtime reads the commit from the WAL; 2 of 30 reads
   * made at the broadcast saw the state before it here), and a change no later one follows would stay unseen.
   */
  readAgainAfterMs?: number;
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

interface TopicListener {
  tables: readonly LiveTable[];
  changed(): void;
  queryClient: QueryClient;
  /** The queries read again when the channel joins. */
  queryKeys: readonly QueryKey[];
}

/**
 * Reads each query of the listeners again after a join, once even when several listeners name it (the
 * wallet's three tables share the holdings and the balance): a second invalidation of a query being read
 * would cancel that read and start another.
 */
function readAgainAfterJoinOnce(listeners: Iterable<TopicListener>) {
  const seen = new Set<string>();
  for (const { queryClient, queryKeys } of listeners) {
    for (const queryKey of queryKeys) {
      const hash = hashKey(queryKey);
      if (seen.has(hash)) continue;
      seen.add(hash);
      void readAgainAfterJoin(queryClient, queryKey);
    }
  }
}

interface TopicChannel {
  listeners: Set<TopicListener>;
  channel: RealtimeChannel | null;
  joined: boolean;
  removal?: ReturnType<typeof setTimeout>;
}

/**
 * One channel per topic and client, shared by every listener (realtime-js keeps one channel per topic
 * name). A channel whose last listener left is removed after the current task, so a listener that comes
 * straight back (React's effects run twice in development, a page handing over to the next) keeps it; a
 * new channel waits until the removal of the old one with the same topic has finished.
 */
const topicChannels = new WeakMap<SupabaseClient<Database>, Map<string, TopicChannel>>();
const removals = new WeakMap<SupabaseClient<Database>, Map<string, Promise<unknown>>>();

/**
 * Joins once the browser is idle: creating the channel and opening the socket took ~10 ms of script, and
 * handling the join's reply up to 30, among the renders of a page's first answers. The read again after
 * the join covers what changed before it.
 */
function openTopic(client: SupabaseClient<Database>, topic: string, entry: TopicChannel) {
  const pendingRemoval = removals.get(client)?.get(topic) ?? Promise.resolve();
  void pendingRemoval.then(() => afterDelayWhenIdle(0, () => joinTopic(client, topic, entry)));
}

function joinTopic(client: SupabaseClient<Database>, topic: string, entry: TopicChannel) {
  if (topicChannels.get(client)?.get(topic) !== entry) return;
  entry.channel = client
    .channel(topic, { config: { private: true } })
    .on('broadcast', { event: '*' }, ({ event }: { event: string }) => {
      for (const listener of entry.listeners) {
        if (listener.tables.includes(event as LiveTable)) listener.changed();
      }
    })
    .subscribe((status) => {
      entry.joined = status === 'SUBSCRIBED';
      if (entry.joined) readAgainAfterJoinOnce(entry.listeners);
    });
}

function closeTopic(client: SupabaseClient<Database>, topic: string, entry: TopicChannel) {
  topicChannels.get(client)?.delete(topic);
  if (!entry.channel) return;
  let pending = removals.get(client);
  if (!pending) removals.set(client, (pending = new Map()));
  const removal = client.removeChannel(entry.channel).finally(() => {
    if (pending.get(topic) === removal) pending.delete(topic);
  });
  pending.set(topic, removal);
}

/**
 * Keeps queries fresh from a private Broadcast topic: a change of one of the tables invalidates the
 * queries, and so does each (re)join of the topic's channel, which covers what changed before it —
 * including the rejoin after the server reports a gap (CHANNEL_ERROR: Postgres or Realtime restarted) or
 * cuts off a client that read too slowly. Returns the function that stops listening.
 */
export function invalidateOnTopicChanges(
  client: SupabaseClient<Database>,
  queryClient: QueryClient,
  { topic, tables, queryKeys, readAgainAfterMs }: TopicChanges,
): () => void {
  let channels = topicChannels.get(client);
  if (!channels) topicChannels.set(client, (channels = new Map()));
  let entry = channels.get(topic);
  if (!entry) {
    entry = { listeners: new Set(), channel: null, joined: false };
    channels.set(topic, entry);
    openTopic(client, topic, entry);
  }
  clearTimeout(entry.removal);
  const invalidate = () => {
    for (const queryKey of queryKeys) void queryClient.invalidateQueries({ queryKey });
  };
  let readAgain: ReturnType<typeof setTimeout> | undefined;
  const listener: TopicListener = {
    tables,
    changed: () => {
      invalidate();
      if (readAgainAfterMs === undefined || readAgain !== undefined) return;
      readAgain = setTimeout(() => {
        readAgain = undefined;
        invalidate();
      }, readAgainAfterMs);
    },
    queryClient,
    queryKeys,
  };
  entry.listeners.add(listener);
  // Already joined: what changed between this listener's first read and now is read again.
  if (entry.joined) readAgainAfterJoinOnce([listener]);
  const joinedEntry = entry;
  return () => {
    clearTimeout(readAgain);
    joinedEntry.listeners.delete(listener);
    if (joinedEntry.listeners.size > 0) return;
    joinedEntry.removal = setTimeout(() => closeTopic(client, topic, joinedEntry));
  };
}
