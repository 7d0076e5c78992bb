import { useSession } from '@/lib/auth';
import { liveTopics, useRealtimeInvalidation } from '@/lib/realtime';
import { sessionsQueryKey, useMySessions } from '../api/list-my-sessions';

/** The person's sessions, read again when one starts (a new sign-in) or ends, as broadcast on their account topic. */
export function useLiveSessions() {
  const { user } = useSession();
  useRealtimeInvalidation({
    topic: liveTopics.account(user?.id ?? ''),
    tables: ['sessions'],
    queryKeys: [sessionsQueryKey],
    enabled: user !== null,
  });
  return useMySessions();
}
