import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

/** Every notification query; Realtime changes to the table make them all stale. */
export const notificationsQueryKey = ['notifications'] as const;

export interface AppNotification {
  id: string;
  title: string;
  body: string;
  createdAt: string;
  read: boolean;
}

export interface NotificationsPage {
  latest: AppNotification[];
  /** Unread among the latest: the bell shows at most "9+", so older unread ones change nothing it shows. */
  unreadCount: number;
}

/** How many the centre lists: the newest, enough to cover a day of activity. */
const LATEST_COUNT = 20;

/** The signed-in person's newest notifications (row-level security: their own), in one read. */
export async function getNotifications(): Promise<NotificationsPage> {
  const { data, error } = await supabase
    .from('notifications')
    .select('id, title, body, created_at, read_at')
    .order('created_at', { ascending: false })
    .limit(LATEST_COUNT);
  if (error) throw error;
  const latest = data.map((row) => ({
    id: row.id,
    title: row.title,
    body: row.body,
    createdAt: row.created_at,
    read: row.read_at !== null,
  }));
  return { latest, unreadCount: latest.filter((notification) => !notification.read).length };
}

export function useNotifications() {
  return useQuery(queryOptions({ queryKey: notificationsQueryKey, queryFn: getNotifications }));
}
