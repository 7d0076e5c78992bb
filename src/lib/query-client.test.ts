import { QueryClient } from '@tanstack/react-query';
import { FAILED_READ_RETRY_INTERVAL_MS, refetchWhileFailed } from './query-client';

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
