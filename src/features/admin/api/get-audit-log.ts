import type { Json } from '@/types/database';
import { supabase } from '@/lib/supabase';
import { AUDIT_LOG_FAILED_MESSAGE } from './admin-messages';
import { adminList } from './list-query';
import { isCalendarDay } from './list-state';

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

/** Who did what to which record, newest first, one page at a time. Read-only. */
export const auditLog = adminList({
  keyRoot: ['admin', 'audit-log'],
  definition: {
    sortColumns: ['at'],
    defaultSort: { column: 'at', ascending: false },
    filters: { from: isCalendarDay, to: isCalendarDay },
  },
  select: (head) =>
    supabase
      .from('audit_log_with_actor')
      .select('id, actor_id, actor_name, actor_email, action, target_table, target_id, details, at', {
        count: 'exact',
        head,
      }),
  columns: { date: 'at', search: ['actor_name', 'actor_email'] },
  toItem: (row): AuditEntry => ({
    id: row.id,
    actorName: row.actor_name,
    actorEmail: row.actor_email,
    actorId: row.actor_id,
    action: row.action,
    targetTable: row.target_table,
    targetId: row.target_id,
    details: row.details,
    at: row.at,
  }),
  failedMessage: AUDIT_LOG_FAILED_MESSAGE,
});
