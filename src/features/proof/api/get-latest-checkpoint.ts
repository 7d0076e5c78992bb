import { useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { LATEST_CHECKPOINT_FAILED_MESSAGE } from './proof-messages';

/** What is published of a checkpoint (public.latest_ledger_checkpoint). */
export interface PublishedCheckpoint {
  id: number;
  created_at: string;
  head_seq: number;
  head_hash: string;
  currencies: string[];
  totals: string[];
  people: number;
  root: string;
}

/** The latest checkpoint's summary, or null before the first; anyone may read it. */
export async function getLatestCheckpoint(): Promise<PublishedCheckpoint | null> {
  const { data, error } = await supabase.rpc('latest_ledger_checkpoint');
  if (error) throw new Error(LATEST_CHECKPOINT_FAILED_MESSAGE, { cause: error });
  return data as PublishedCheckpoint | null;
}

export const latestCheckpointQueryKey = ['ledger', 'latest-checkpoint'] as const;

export function useLatestCheckpoint() {
  return useQuery({ queryKey: latestCheckpointQueryKey, queryFn: getLatestCheckpoint });
}
