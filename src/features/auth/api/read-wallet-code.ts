import { loadSupabase } from '@/lib/session-client';

/** The wallet code the database gave this person's profile at sign-up. */
export async function readWalletCode(userId: string): Promise<string> {
  const supabase = await loadSupabase();
  const profile = await supabase
    .from('profiles')
    .select('wallet_code')
    .eq('id', userId)
    .single()
    .throwOnError();
  return profile.data.wallet_code;
}
