import { notifyManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { createQueryClient, FAILED_READ_RETRY_INTERVAL_MS, refetchWhileFailed } from './query-client';

describe('reads of server data', () => {
  it('are read again every few seconds while their error shows, and not once they succeed', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const failing = client.getQueryCache().build(client, {
      queryKey: ['down'],
      queryFn: () => Promise.reject(new Error('down')),
    });
    await failing.fetch().catch(() => undefined);
    expect(refetchWhileFailed(failing)).toBe(FAILED_READ_RETRY_INTERVAL_MS);

    const working = client.getQueryCache().build(client, { queryKey: ['up'], queryFn: () => 'rows' });
    await working.fetch();
    expect(refetchWhileFailed(working)).toBe(false);
  });
});

describe('changes of server data', () => {
  it('reach each component showing them in a task of its own, not all in one long task', async () => {
    const client = createQueryClient();
    const told: string[] = [];
    let toldByTheEndOfTheFirstTask: string[] = [];
    // As useQuery subscribes a component: through notifyManager.batchCalls.
    for (const panel of ['balance', 'portfolio']) {
      new QueryObserver(client, { queryKey: ['balance'], queryFn: () => 0, enabled: false }).subscribe(
        notifyManager.batchCalls(() => {
          told.push(panel);
          if (told.length === 1) queueMicrotask(() => (toldByTheEndOfTheFirstTask = [...told]));
        }),
      );
    }
    client.setQueryData(['balance'], 100);
    await expect.poll(() => told).toEqual(['balance', 'portfolio']);
    expect(toldByTheEndOfTheFirstTask).toEqual(['balance']);
  });
});
