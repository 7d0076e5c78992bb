import { supabase } from '@/lib/supabase';
import { MY_PROOF_FAILED_MESSAGE } from './proof-messages';

/** The signed-in person's inclusion proof in the latest checkpoint; null when they have no leaf in it. */
export async function getMyProof(): Promise<unknown> {
  const { data, error } = await supabase.rpc('my_liability_proof');
  if (error) throw new Error(MY_PROOF_FAILED_MESSAGE, { cause: error });
  return data;
}
