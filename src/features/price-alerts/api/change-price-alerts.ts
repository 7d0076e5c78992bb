import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { priceAlertsQueryKey, type PriceAlertCondition } from './get-price-alerts';

export const CHANGE_PRICE_ALERT_FAILED_MESSAGE = 'Failed to change your price alerts. Please try again.';

export type PriceAlertChange =
  | { action: 'set'; alert: PriceAlertCondition & { cryptocurrency: string } }
  | { action: 'delete'; id: string };

/** The row of a new alert: a price or a percentage, the other column left empty. */
const alertRow = (alert: PriceAlertCondition & { cryptocurrency: string }) => ({
  cryptocurrency: alert.cryptocurrency,
  direction: alert.direction,
  price: alert.direction === 'moves' ? null : alert.price,
  percent: alert.direction === 'moves' ? alert.percent : null,
});

/** Sets or deletes one of the person's alerts; the database's own refusal (the limit of 20) comes back as is. */
export async function changePriceAlerts(change: PriceAlertChange): Promise<void> {
  const { error } =
    change.action === 'set'
      ? await supabase.from('price_alerts').insert(alertRow(change.alert))
      : await supabase.from('price_alerts').delete().eq('id', change.id);
  if (error) {
    throw new Error(error.code === 'P0001' ? error.message : CHANGE_PRICE_ALERT_FAILED_MESSAGE, {
      cause: error,
    });
  }
}

export function useChangePriceAlerts(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePriceAlerts,
    onSettled: () => queryClient.invalidateQueries({ queryKey: priceAlertsQueryKey(userId) }),
  });
}
