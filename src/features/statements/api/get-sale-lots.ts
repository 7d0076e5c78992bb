import { useQuery } from '@tanstack/react-query';
import { startOfDay } from '@/lib/calendar-day';
import { supabase } from '@/lib/supabase';
import type { StatementPeriod } from './get-statement';

/** One lot a sale consumed, as the database matched it (the gains report's line). */
export interface SaleLot {
  lotId: string | null;
  dateAcquired: string | null;
  quantity: string;
  costBasis: string;
  gain: string;
  term: string | null;
}

export const SALE_LOTS_FAILED_MESSAGE = 'Failed to load the lots your sales consumed.';

/** The lots each sale of the period consumed, by sale id (the person's own, from `disposals`). */
export async function getSaleLots({ from, to }: StatementPeriod): Promise<Map<string, SaleLot[]>> {
  const { data, error } = await supabase
    .rpc('disposals', { sold_from: startOfDay(from), sold_before: startOfDay(to, 1) })
    .select('sale_id, lot_id, date_acquired, quantity::text, cost_basis::text, gain::text, term');
  if (error) throw new Error(SALE_LOTS_FAILED_MESSAGE, { cause: error });
  const bySale = new Map<string, SaleLot[]>();
  for (const row of data) {
    const lots = bySale.get(row.sale_id ?? '') ?? [];
    lots.push({
      lotId: row.lot_id,
      dateAcquired: row.date_acquired,
      quantity: row.quantity,
      costBasis: row.cost_basis,
      gain: row.gain,
      term: row.term,
    });
    bySale.set(row.sale_id ?? '', lots);
  }
  return bySale;
}

export function useSaleLots(userId: string, period: StatementPeriod) {
  return useQuery({ queryKey: ['sale-lots', userId, period], queryFn: () => getSaleLots(period) });
}
