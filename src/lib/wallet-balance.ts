import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

export interface WalletBalance {
  /** Ledger balance: completed deposits and sells minus completed withdrawals and buys. */
  balance: number;
  /** Amount held by open withdraw requests. */
  reserved: number;
  /** What the user may spend or withdraw now: balance minus reserved. */
  available: number;
}

export const walletBalanceQueryKey = (userId: string) => ['wallet-balance', userId] as const;

/** The database computes the balance (view `wallet_balances`); the browser only shows it. */
export async function getWalletBalance(userId: string): Promise<WalletBalance> {
  const { data, error } = await supabase
    .from('wallet_balances')
    .select('balance, reserved, available')
    .eq('user_id', userId)
    .maybeSingle();
  if (error) throw error;
  return {
    balance: Number(data?.balance ?? 0),
    reserved: Number(data?.reserved ?? 0),
    available: Number(data?.available ?? 0),
  };
}

export const walletBalanceQueryOptions = (userId: string) =>
  queryOptions({ queryKey: walletBalanceQueryKey(userId), queryFn: () => getWalletBalance(userId) });

export function useWalletBalance(userId: string | undefined) {
  return useQuery({ ...walletBalanceQueryOptions(userId ?? ''), enabled: Boolean(userId) });
}
