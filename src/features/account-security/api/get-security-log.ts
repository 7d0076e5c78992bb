import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SecurityLogEntry } from '@domain/security-log.ts';
import { supabase } from '@/lib/supabase';

/** Everything read of one person's log: a new entry makes all of it stale. */
export const securityLogQueryKey = (personId: string) => ['account', 'security-log', personId] as const;

const COLUMNS = 'user_id, seq, recorded_at, event, detail, ip, user_agent, prev_hash, hash';

/** PostgREST answers at most this many rows (supabase/config.toml, max_rows): the whole log is read in pages of it. */
const READ_ROWS = 1000;

/** Entries on one screen of the log. */
export const SECURITY_LOG_PAGE_ROWS = 50;

/**
 * One person's whole security log (their own, or anyone's for an admin at aal2, by its policies), oldest
 * first: checking the chain and the CSV need every entry from the first. Read on demand, not on screen.
 */
export async function getWholeSecurityLog(personId: string): Promise<SecurityLogEntry[]> {
  const entries: SecurityLogEntry[] = [];
  for (;;) {
    const { data, error } = await supabase
      .from('security_log')
      .select(COLUMNS)
      .eq('user_id', personId)
      .gt('seq', entries.at(-1)?.seq ?? 0)
      .order('seq')
      .limit(READ_ROWS);
    if (error) throw error;
    entries.push(...data);
    if (data.length < READ_ROWS) return entries;
  }
}

/**
 * One screen of the log, newest first: the entries before `before` (null: the newest). Keyset paging on the
 * primary key (user_id, seq), so a page deep in a long log costs what the first does.
 */
export async function getSecurityLogPage(
  personId: string,
  before: number | null,
): Promise<SecurityLogEntry[]> {
  let query = supabase.from('security_log').select(COLUMNS).eq('user_id', personId);
  if (before !== null) query = query.lt('seq', before);
  const { data, error } = await query.order('seq', { ascending: false }).limit(SECURITY_LOG_PAGE_ROWS);
  if (error) throw error;
  return data;
}

export function useSecurityLogPage(personId: string, before: number | null) {
  return useQuery(
    queryOptions({
      queryKey: [...securityLogQueryKey(personId), 'page', before],
      queryFn: () => getSecurityLogPage(personId, before),
      enabled: personId !== '',
      // The page shown stays while the next one loads.
      placeholderData: keepPreviousData,
    }),
  );
}

/** Whose log an admin is reading: their name and e-mail (profiles, admins at aal2). */
export function useSecurityLogOwner(personId: string) {
  return useQuery(
    queryOptions({
      queryKey: ['admin', 'security-log-owner', personId],
      queryFn: async () => {
        const { data, error } = await supabase
          .from('profiles')
          .select('full_name, email')
          .eq('id', personId)
          .maybeSingle();
        if (error) throw error;
        return data;
      },
    }),
  );
}
