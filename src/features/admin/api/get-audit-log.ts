import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Json } from '@/types/database';
import { supabase } from '@/lib/supabase';
import { AUDIT_LOG_FAILED_MESSAGE } from './admin-messages';
import { pageRange, toPage, type Page } from './paging';

export interface AuditEntry {
  id: string;
  /** Who acted; both null for the database operator or a person deleted since. */
  actorName: string | null;
  actorEmail: string | null;
  actorId: string | null;
  action: string;
  targetTable: string;
  targetId: string | null;
  details: Json;
  at: string;
}

export const auditLogQueryKey = (page: number) => ['admin', 'audit-log', page] as const;

/** Who did what to which record, newest first, one page at a time. Read-only. */
export async function getAuditLog(page: number): Promise<Page<AuditEntry>> {
  const [from, to] = pageRange(page);
  const answer = await supabase
    .from('audit_log_with_actor')
    .select('id, actor_id, actor_name, actor_email, action, target_table, target_id, details, at', {
      count: 'exact',
    })
    .order('at', { ascending: false })
    .order('id')
    .range(from, to);
  return toPage(answer, AUDIT_LOG_FAILED_MESSAGE, (row) => ({
    id: row.id,
    actorName: row.actor_name,
    actorEmail: row.actor_email,
    actorId: row.actor_id,
    action: row.action,
    targetTable: row.target_table,
    targetId: row.target_id,
    details: row.details,
    at: row.at,
  }));
}

export const auditLogQueryOptions = (page: number) =>
  queryOptions({ queryKey: auditLogQueryKey(page), queryFn: () => getAuditLog(page) });

export function useAuditLog(page: number) {
  return useQuery({ ...auditLogQueryOptions(page), placeholderData: keepPreviousData });
}
