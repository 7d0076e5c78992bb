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
  unreadCount: number;
}

/** How many the centre lists: the newest, enough to cover a day of activity. */
const LATEST_COUNT = 20;

/** The signed-in person's newest notifications and how many are unread (row-level security: their own). */
export async function getNotifications(): Promise<NotificationsPage> {
  const [latest, unread] = await Promise.all([
    supabase
      .from('notifications')
      .select('id, title, body, created_at, read_at')
      .order('created_at', { ascending: false })
      .limit(LATEST_COUNT),
    supabase.from('notifications').select('id', { count: 'exact', head: true }).is('read_at', null),
  ]);
  if (latest.error) throw latest.error;
  if (unread.error) throw unread.error;
  return {
    latest: latest.data.map((row) => ({
      id: row.id,
      title: row.title,
      body: row.body,
      createdAt: row.created_at,
      read: row.read_at !== null,
    })),
    unreadCount: unread.count ?? 0,
  };
}

export function useNotifications() {
  return useQuery(queryOptions({ queryKey: notificationsQueryKey, queryFn: getNotifications }));
}
