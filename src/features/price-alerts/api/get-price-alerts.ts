import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

export interface PriceAlert {
  id: string;
  cryptocurrency: string;
  direction: 'above' | 'below';
  price: number;
  /** False from a firing until the price is back more than 1 % on the other side. */
  armed: boolean;
  lastFiredAt: string | null;
}

export const priceAlertsQueryKey = (userId: string) => ['price-alerts', userId] as const;

export const PRICE_ALERTS_FAILED_MESSAGE = 'Failed to load your price alerts';

/** The signed-in person's alerts, oldest first (row-level security returns their own only). */
export async function getPriceAlerts(): Promise<PriceAlert[]> {
  const { data, error } = await supabase
    .from('price_alerts')
    .select('id, cryptocurrency, direction, price, armed, last_fired_at')
    .order('created_at');
  if (error) throw new Error(PRICE_ALERTS_FAILED_MESSAGE, { cause: error });
  return data.map((row) => ({
    id: row.id,
    cryptocurrency: row.cryptocurrency,
    direction: row.direction === 'below' ? 'below' : 'above',
    price: row.price,
    armed: row.armed,
    lastFiredAt: row.last_fired_at,
  }));
}

export function usePriceAlerts(userId: string) {
  return useQuery(queryOptions({ queryKey: priceAlertsQueryKey(userId), queryFn: getPriceAlerts }));
}
