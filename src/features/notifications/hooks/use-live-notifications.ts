import { useSession } from '@/lib/auth';
import { liveTopics, useRealtimeInvalidation } from '@/lib/realtime';
import { notificationsQueryKey, useNotifications } from '../api/get-notifications';

/** The person's notifications, read again on every change broadcast on their account topic (left on unmount). */
export function useLiveNotifications() {
  const { user } = useSession();
  useRealtimeInvalidation({
    topic: liveTopics.account(user?.id ?? ''),
    tables: ['notifications'],
    queryKeys: [notificationsQueryKey],
    enabled: user !== null,
  });
  return useNotifications();
}
