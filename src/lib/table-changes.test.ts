import type { SupabaseClient } from '@supabase/supabase-js';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Database } from '@/types/database';
import { invalidateOnTopicChanges } from './table-changes';

/** Stands in for supabase-js's channels: the test says when the channel has joined. */
function clientWithChannel() {
  let reportStatus: ((status: string) => void) | undefined;
  const channel = {
    on: () => channel,
    subscribe: (callback: (status: string) => void) => {
      reportStatus = callback;
      return channel;
    },
  };
  const client = {
    channel: () => channel,
    removeChannel: () => Promise.resolve('ok'),
  } as unknown as SupabaseClient<Database>;
  return {
    client,
    subscribed: () => reportStatus !== undefined,
    join: () => reportStatus?.('SUBSCRIBED'),
  };
}

describe('invalidateOnTopicChanges', () => {
  it('reads a query named by several tables of a topic once again when the channel joins, not once per table', async () => {
    const queryClient = new QueryClient();
    const reads: string[] = [];
    let answer = 0;
    const observer = new QueryObserver(queryClient, {
      queryKey: ['wallet', 'holdings', 'alice'],
      queryFn: () => {
        reads.push('holdings');
        return Promise.resolve(++answer);
      },
    });
    const unsubscribe = observer.subscribe(() => {});
    await expect.poll(() => observer.getCurrentResult().data).toBe(1);

    const { client, subscribed, join } = clientWithChannel();
    const stops = (['transactions', 'sell_requests'] as const).map((table) =>
      invalidateOnTopicChanges(client, queryClient, {
        topic: 'user:alice:wallet',
        tables: [table],
        queryKeys: [['wallet', 'holdings', 'alice']],
      }),
    );
    // The channel opens once the removal of any earlier one with its topic has settled, when idle.
    await expect.poll(subscribed).toBe(true);
    join();
    await expect.poll(() => observer.getCurrentResult().data).toBe(2);
    // The witness: a later change of one table is read, after which nothing else was.
    queryClient.invalidateQueries({ queryKey: ['wallet', 'holdings', 'alice'] });
    await expect.poll(() => observer.getCurrentResult().data).toBe(3);
    expect(reads).toEqual(['holdings', 'holdings', 'holdings']);

    stops.forEach((stop) => stop());
    unsubscribe();
  });

  it('joins the topic only once the browser is idle, not among the renders of the first answers', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    try {
      const { client, subscribed } = clientWithChannel();
      const stop = invalidateOnTopicChanges(client, new QueryClient(), {
        topic: 'user:alice:wallet',
        tables: ['transactions'],
        queryKeys: [['wallet', 'transactions', 'alice']],
      });
      await expect.poll(() => idle.length).toBe(1);
      expect(subscribed()).toBe(false);
      idle.forEach((callback) => callback());
      expect(subscribed()).toBe(true);
      stop();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
