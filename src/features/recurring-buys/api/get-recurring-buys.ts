import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { Database } from '@/types/database';

export type RecurringBuy = Database['public']['Tables']['recurring_buys']['Row'];

export interface RecurringBuyRun {
  id: string;
  recurringBuyId: string;
  scheduledFor: string;
  buyRequestId: string | null;
  skipReason: string | null;
}

export interface RecurringBuys {
  schedules: RecurringBuy[];
  /** Newest first, the last 100 of every schedule together. */
  runs: RecurringBuyRun[];
}

export const recurringBuysQueryKey = (userId: string) => ['recurring-buys', userId] as const;

export const RECURRING_BUYS_FAILED_MESSAGE = 'Failed to load your recurring buys';

/** The signed-in person's schedules and their latest runs (row-level security returns their own only). */
export async function getRecurringBuys(): Promise<RecurringBuys> {
  const [schedules, runs] = await Promise.all([
    supabase.from('recurring_buys').select('*').order('created_at'),
    supabase
      .from('recurring_buy_runs')
      .select('id, recurring_buy_id, scheduled_for, buy_request_id, skip_reason')
      .order('scheduled_for', { ascending: false })
      .limit(100),
  ]);
  if (schedules.error || runs.error) {
    throw new Error(RECURRING_BUYS_FAILED_MESSAGE, { cause: schedules.error ?? runs.error });
  }
  return {
    schedules: schedules.data,
    runs: runs.data.map((run) => ({
      id: run.id,
      recurringBuyId: run.recurring_buy_id,
      scheduledFor: run.scheduled_for,
      buyRequestId: run.buy_request_id,
      skipReason: run.skip_reason,
    })),
  };
}

export function useRecurringBuys(userId: string) {
  return useQuery(queryOptions({ queryKey: recurringBuysQueryKey(userId), queryFn: getRecurringBuys }));
}
