import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { watchlistQueryKey } from './get-watchlist';
import { WATCHLIST_FAILED_MESSAGE } from './watchlist-messages';

/** Stars or unstars one coin for the signed-in person; starring a coin already starred changes nothing. */
export async function setCoinStarred(coinId: string, starred: boolean): Promise<void> {
  const { error } = starred
    ? await supabase.from('watchlist').insert({ coin_id: coinId })
    : await supabase.from('watchlist').delete().eq('coin_id', coinId);
  // 23505: already starred (in another tab, say), which is what was asked.
  if (error && error.code !== '23505') throw new Error(WATCHLIST_FAILED_MESSAGE, { cause: error });
}

/**
 * The star's toggle: the coin moves at once (optimistically), back again if the server refuses (the
 * mutation's error then says so), and the list is read again either way.
 */
export function useSetCoinStarred(userId: string) {
  const queryClient = useQueryClient();
  const queryKey = watchlistQueryKey(userId);
  return useMutation({
    mutationFn: ({ coinId, starred }: { coinId: string; starred: boolean }) =>
      setCoinStarred(coinId, starred),
    onMutate: async ({ coinId, starred }) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData<ReadonlySet<string>>(queryKey);
      const next = new Set(previous);
      if (starred) next.add(coinId);
      else next.delete(coinId);
      queryClient.setQueryData<ReadonlySet<string>>(queryKey, next);
      return { previous };
    },
    onError: (_error, _change, context) => {
      queryClient.setQueryData(queryKey, context?.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}
