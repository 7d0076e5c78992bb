import { QueryClient } from '@tanstack/react-query';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
    },
  });
}

/**
 * The app's one cache of server data, shared by every page that reads or writes it. It lives in its
 * own module, loaded with the first such page, so the public pages' visitors never download it.
 */
export const queryClient = createQueryClient();
