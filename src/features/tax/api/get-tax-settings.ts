import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { Database } from '@/types/database';

export type CostBasisMethod = Database['public']['Enums']['cost_basis_method'];

export interface CostBasisElection {
  fromTaxYear: number;
  method: CostBasisMethod;
}

export interface TaxSettings {
  /** The IANA time zone tax years and days are counted in; UTC until the person sets one. */
  timeZone: string;
  /** The person's choices, oldest first; before the first, FIFO. */
  elections: CostBasisElection[];
}

export const taxSettingsQueryKey = (userId: string) => ['tax-settings', userId] as const;

export const TAX_SETTINGS_FAILED_MESSAGE = 'Failed to load your tax settings';

/** The signed-in person's tax time zone and method choices (row-level security returns their own only). */
export async function getTaxSettings(): Promise<TaxSettings> {
  const [settings, elections] = await Promise.all([
    supabase.from('tax_settings').select('time_zone').maybeSingle(),
    supabase.from('cost_basis_elections').select('from_tax_year, method').order('from_tax_year'),
  ]);
  if (settings.error || elections.error) {
    throw new Error(TAX_SETTINGS_FAILED_MESSAGE, { cause: settings.error ?? elections.error });
  }
  return {
    timeZone: settings.data?.time_zone ?? 'UTC',
    elections: elections.data.map((row) => ({ fromTaxYear: row.from_tax_year, method: row.method })),
  };
}

export function useTaxSettings(userId: string) {
  return useQuery(queryOptions({ queryKey: taxSettingsQueryKey(userId), queryFn: getTaxSettings }));
}

/** The method in force in a tax year: the latest choice from that year or before, else FIFO. */
export function methodForYear(elections: readonly CostBasisElection[], taxYear: number): CostBasisMethod {
  return elections.filter((election) => election.fromTaxYear <= taxYear).at(-1)?.method ?? 'fifo';
}
