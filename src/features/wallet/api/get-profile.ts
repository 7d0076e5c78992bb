import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

export interface WalletProfile {
  fullName: string | null;
  walletCode: string;
}

export const walletProfileQueryKey = (userId: string) => ['wallet', 'profile', userId] as const;

/** The signed-in person's name and wallet code (explicit columns: never `*`). */
export async function getWalletProfile(userId: string): Promise<WalletProfile> {
  const { data, error } = await supabase
    .from('profiles')
    .select('full_name, wallet_code')
    .eq('id', userId)
    .single();
  if (error) throw error;
  return { fullName: data.full_name, walletCode: data.wallet_code };
}

export function useWalletProfile(userId: string) {
  return useQuery(
    queryOptions({
      queryKey: walletProfileQueryKey(userId),
      queryFn: () => getWalletProfile(userId),
      // The wallet code never changes.
      staleTime: Infinity,
    }),
  );
}
