import { useAuth } from '@/lib/auth';
import { liveTopics, useRealtimeInvalidation } from '@/lib/realtime';
import { securityLogQueryKey, useSecurityLog } from '../api/get-security-log';

/** The person's security log, read again when an entry is added (broadcast on their account topic). */
export function useLiveSecurityLog() {
  const { user } = useAuth();
  useRealtimeInvalidation({
    topic: liveTopics.account(user?.id ?? ''),
    tables: ['security_log'],
    queryKeys: [securityLogQueryKey],
    enabled: user !== null,
  });
  return useSecurityLog();
}
