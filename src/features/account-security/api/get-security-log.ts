import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SecurityLogEntry } from '@domain/security-log.ts';
import { supabase } from '@/lib/supabase';

export const securityLogQueryKey = ['account', 'security-log'] as const;

/** PostgREST answers at most this many rows (supabase/config.toml, max_rows): the log is read in pages of it. */
const PAGE_ROWS = 1000;

/**
 * The person's whole security log (their own rows, by its policy), oldest first: checking the chain needs
 * every entry from the first.
 */
export async function getSecurityLog(): Promise<SecurityLogEntry[]> {
  const entries: SecurityLogEntry[] = [];
  for (;;) {
    const { data, error } = await supabase
      .from('security_log')
      .select('user_id, seq, recorded_at, event, detail, ip, user_agent, prev_hash, hash')
      .order('seq')
      .range(entries.length, entries.length + PAGE_ROWS - 1);
    if (error) throw error;
    entries.push(...data);
    if (data.length < PAGE_ROWS) return entries;
  }
}

export function useSecurityLog() {
  return useQuery(queryOptions({ queryKey: securityLogQueryKey, queryFn: getSecurityLog }));
}
