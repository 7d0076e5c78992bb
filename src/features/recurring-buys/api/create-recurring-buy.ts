import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { recurringBuysQueryKey, type RecurringBuy } from './get-recurring-buys';

export const CREATE_RECURRING_BUY_FAILED_MESSAGE = 'Failed to schedule the recurring buy. Please try again.';

/** What a schedule buys and when, as the person chose it (creating or changing one). */
export interface RecurringBuyTerms {
  cryptocurrency: string;
  amount: number;
  frequency: 'daily' | 'weekly' | 'twice_monthly' | 'monthly';
  /** ISO day of the week, 1 Monday to 7 Sunday, for a weekly buy. */
  dayOfWeek?: number;
  /** 1 to 31 for a monthly buy (a shorter month's last day). */
  dayOfMonth?: number;
  /** HH:MM in timeZone. */
  timeOfDay: string;
  timeZone: string;
  tolerancePercent: number;
  priceCeiling?: number;
  /** Hours each run's buy request waits for approval before it expires, 1 to 720. */
  expiryHours: number;
}

export interface NewRecurringBuy extends RecurringBuyTerms {
  /** One per form submission: a retry of the same submission makes no second schedule. */
  idempotencyKey: string;
}

/** Schedules a recurring buy; the database's refusals (time zone, limits, step-up, lock) come back as they are. */
export async function createRecurringBuy(schedule: NewRecurringBuy): Promise<RecurringBuy> {
  const { data, error } = await supabase.rpc('create_recurring_buy', {
    cryptocurrency: schedule.cryptocurrency,
    amount: schedule.amount,
    frequency: schedule.frequency,
    day_of_week: schedule.dayOfWeek,
    day_of_month: schedule.dayOfMonth,
    time_of_day: schedule.timeOfDay,
    time_zone: schedule.timeZone,
    tolerance_percent: schedule.tolerancePercent,
    price_ceiling: schedule.priceCeiling,
    expiry_hours: schedule.expiryHours,
    idempotency_key: schedule.idempotencyKey,
  });
  if (error) {
    const refusal = error.code === 'P0001' || error.code === '42501';
    throw new Error(refusal ? error.message : CREATE_RECURRING_BUY_FAILED_MESSAGE, { cause: error });
  }
  return data;
}

export function useCreateRecurringBuy(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRecurringBuy,
    onSettled: () => queryClient.invalidateQueries({ queryKey: recurringBuysQueryKey(userId) }),
  });
}
