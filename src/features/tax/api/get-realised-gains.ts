import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { CostBasisMethod } from './get-tax-settings';

/**
 * One line of the gains report: the part of a sale that consumed one lot. Amounts and quantities stay the
 * database's decimal strings, so nothing is rounded twice (docs/features.md, "Cost basis").
 */
export interface GainLine {
  saleId: string;
  lotId: string | null;
  cryptocurrency: string;
  dateAcquired: string | null;
  dateSold: string;
  quantity: string;
  proceeds: string;
  costBasis: string;
  gain: string;
  term: 'short' | 'long' | null;
  method: CostBasisMethod;
}

export const GAINS_FAILED_MESSAGE = 'Failed to load your gains report. Please try again.';

export const realisedGainsQueryKey = (userId: string, taxYear: number) =>
  ['realised-gains', userId, taxYear] as const;

/** The signed-in person's disposals of a tax year, matched in SQL (`realised_gains`), oldest sale first. */
export async function getRealisedGains(taxYear: number): Promise<GainLine[]> {
  // numeric as text: the report adds cents and shows 8 places without a float in between.
  const { data, error } = await supabase
    .rpc('realised_gains', { tax_year: taxYear })
    .select(
      'sale_id, lot_id, cryptocurrency, date_acquired, date_sold, quantity::text, proceeds::text, cost_basis::text, gain::text, term, method',
    );
  if (error) throw new Error(GAINS_FAILED_MESSAGE, { cause: error });
  // A composite type's fields are nullable to the type generator; a disposal always has these.
  return data.map((row) => ({
    saleId: row.sale_id ?? '',
    lotId: row.lot_id,
    cryptocurrency: row.cryptocurrency ?? '',
    dateAcquired: row.date_acquired,
    dateSold: row.date_sold ?? '',
    quantity: row.quantity,
    proceeds: row.proceeds,
    costBasis: row.cost_basis,
    gain: row.gain,
    term: row.term === 'short' || row.term === 'long' ? row.term : null,
    method: row.method ?? 'fifo',
  }));
}

export function useRealisedGains(userId: string, taxYear: number) {
  return useQuery(
    queryOptions({
      queryKey: realisedGainsQueryKey(userId, taxYear),
      queryFn: () => getRealisedGains(taxYear),
    }),
  );
}
