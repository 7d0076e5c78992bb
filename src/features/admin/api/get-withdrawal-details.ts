import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { DECRYPT_FAILED_MESSAGE } from './admin-messages';
import { functionRefusal } from '@/lib/function-refusal';

/** Decrypted payout details by the specification's field names (only the chosen method's fields). */
export type WithdrawalDetails = Record<string, string>;

export const withdrawalDetailsQueryKey = (requestId: string) =>
  ['admin', 'withdrawal-details', requestId] as const;

/** Decrypts one request's details in the `withdrawal-details` function, which records the view in the audit log. */
export async function getWithdrawalDetails(requestId: string): Promise<WithdrawalDetails> {
  const { data, error } = await supabase.functions.invoke<{ details: WithdrawalDetails }>(
    'withdrawal-details',
    {
      body: { requestId },
    },
  );
  if (error || !data) {
    throw new Error((await functionRefusal(error)) ?? DECRYPT_FAILED_MESSAGE, { cause: error });
  }
  return data.details;
}

export const withdrawalDetailsQueryOptions = (requestId: string) =>
  queryOptions({
    queryKey: withdrawalDetailsQueryKey(requestId),
    queryFn: () => getWithdrawalDetails(requestId),
    // Secrets stay in memory only while the dialog shows them, and every opening is a fresh audited read.
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });

export function useWithdrawalDetails(requestId: string | undefined) {
  return useQuery({ ...withdrawalDetailsQueryOptions(requestId ?? ''), enabled: Boolean(requestId) });
}
