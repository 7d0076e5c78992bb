import { useAuth } from '@/lib/auth';
import { useRealtimeInvalidation } from '@/lib/realtime';
import { notificationsQueryKey, useNotifications } from '../api/get-notifications';

/** The person's notifications, read again on every change Realtime reports (the channel goes on unmount). */
export function useLiveNotifications() {
  const { user } = useAuth();
  useRealtimeInvalidation({
    table: 'notifications',
    filter: user ? `user_id=eq.${user.id}` : undefined,
    queryKeys: [notificationsQueryKey],
    enabled: user !== null,
  });
  return useNotifications();
}
