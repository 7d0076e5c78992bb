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

/** A schedule's terms as create_recurring_buy and update_recurring_buy take them. */
export const termsArguments = (terms: RecurringBuyTerms) => ({
  cryptocurrency: terms.cryptocurrency,
  amount: terms.amount,
  frequency: terms.frequency,
  day_of_week: terms.dayOfWeek,
  day_of_month: terms.dayOfMonth,
  time_of_day: terms.timeOfDay,
  time_zone: terms.timeZone,
  tolerance_percent: terms.tolerancePercent,
  price_ceiling: terms.priceCeiling,
  expiry_hours: terms.expiryHours,
});

/** Schedules a recurring buy; the database's refusals (time zone, limits, step-up, lock) come back as they are. */
export async function createRecurringBuy(schedule: NewRecurringBuy): Promise<RecurringBuy> {
  const { data, error } = await supabase.rpc('create_recurring_buy', {
    ...termsArguments(schedule),
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
