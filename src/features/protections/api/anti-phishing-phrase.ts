import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { databaseRefusal } from './address-book';

export const antiPhishingPhraseQueryKey = ['protections', 'anti-phishing-phrase'] as const;

/**
 * The person's phrase as Auth holds it now (the user metadata, which Auth's e-mail templates read); asked of
 * Auth rather than read from the session, whose copy is only as new as its token.
 */
export async function getAntiPhishingPhrase(): Promise<string> {
  const { data, error } = await supabase.auth.getUser();
  if (error) throw error;
  const phrase: unknown = data.user.user_metadata.anti_phishing_phrase;
  return typeof phrase === 'string' ? phrase : '';
}

export function useAntiPhishingPhrase() {
  return useQuery(queryOptions({ queryKey: antiPhishingPhraseQueryKey, queryFn: getAntiPhishingPhrase }));
}

/** Sets the phrase (blank removes it), then reads it again. */
export function useSetAntiPhishingPhrase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (phrase: string) => {
      const { error } = await supabase.rpc('set_anti_phishing_phrase', { phrase });
      if (error) throw databaseRefusal(error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: antiPhishingPhraseQueryKey }),
  });
}
