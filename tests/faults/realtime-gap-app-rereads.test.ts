import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateOnTopicChanges, liveTopics } from '@/lib/table-changes';
import { createNodeClient } from '../support/node-client';
import { connectAsOperator, faultStackForFile, waitUntil } from '../support/fault-stack';

const fault = faultStackForFile();

describe('the app’s live list when Postgres restarts', () => {
  it('reads its rows again once the channel that reported the gap has joined again', async () => {
    const client = createNodeClient(fault.stack.apiUrl, fault.stack.anonKey);
    await client.realtime.setAuth(fault.person().accessToken);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let reads = 0;
    const queryKey = ['own-buy-requests'];
    const observer = new QueryObserver(queryClient, {
      queryKey,
      queryFn: async () => {
        reads += 1;
        const operator = await connectAsOperator(fault.stack);
        try {
          const { rows } = await operator.query<{ id: string }>(
            'select id from public.buy_requests where user_id = $1',
            [fault.person().id],
          );
          return rows.map((row) => row.id);
        } finally {
          await operator.end();
        }
      },
    });
    const stopObserving = observer.subscribe(() => undefined);
    const removeChannel = invalidateOnTopicChanges(client, queryClient, {
      topic: liveTopics.wallet(fault.person().id),
      tables: ['buy_requests'],
      queryKeys: [queryKey],
    });
    try {
      await waitUntil(
        () => reads >= 2 && queryClient.isFetching({ queryKey }) === 0,
        'the first read and the read on join',
      );
      const readsBeforeGap = reads;

      await fault.stack.postgres.restart();

      // No change of this person was delivered: only the gap (CHANNEL_ERROR, rejoin) makes the list read again.
      await waitUntil(
        () => reads > readsBeforeGap && queryClient.isFetching({ queryKey }) === 0,
        'a read after the gap',
        30_000,
      );
      expect(observer.getCurrentResult().status).toBe('success');
    } finally {
      removeChannel();
      stopObserving();
      queryClient.clear();
      client.realtime.disconnect();
    }
  });
});
