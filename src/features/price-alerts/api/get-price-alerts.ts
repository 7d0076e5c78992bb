import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

/** "Above / below a price" or "moves more than a percentage in 24 h", up or down. */
export type PriceAlertCondition =
  { direction: 'above' | 'below'; price: number } | { direction: 'moves'; percent: number };

export type PriceAlert = PriceAlertCondition & {
  id: string;
  cryptocurrency: string;
  /** False from a firing until the price is back more than 1 % on the other side. */
  armed: boolean;
  lastFiredAt: string | null;
};

function conditionOf(row: {
  direction: string;
  price: number | null;
  percent: number | null;
}): PriceAlertCondition {
  if (row.direction === 'moves') return { direction: 'moves', percent: row.percent ?? 0 };
  return { direction: row.direction === 'below' ? 'below' : 'above', price: row.price ?? 0 };
}

export const priceAlertsQueryKey = (userId: string) => ['price-alerts', userId] as const;

export const PRICE_ALERTS_FAILED_MESSAGE = 'Failed to load your price alerts';

/** The signed-in person's alerts, oldest first (row-level security returns their own only). */
export async function getPriceAlerts(): Promise<PriceAlert[]> {
  const { data, error } = await supabase
    .from('price_alerts')
    .select('id, cryptocurrency, direction, price, percent, armed, last_fired_at')
    .order('created_at');
  if (error) throw new Error(PRICE_ALERTS_FAILED_MESSAGE, { cause: error });
  return data.map((row) => ({
    ...conditionOf(row),
    id: row.id,
    cryptocurrency: row.cryptocurrency,
    armed: row.armed,
    lastFiredAt: row.last_fired_at,
  }));
}

export function usePriceAlerts(userId: string) {
  return useQuery(queryOptions({ queryKey: priceAlertsQueryKey(userId), queryFn: getPriceAlerts }));
}
