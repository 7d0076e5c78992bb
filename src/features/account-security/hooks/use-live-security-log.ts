import { useRealtimeInvalidation } from '@/lib/realtime';
import { securityLogQueryKey, useSecurityLogPage } from '../api/get-security-log';

/**
 * One screen of a person's security log, read again when an entry is added: `topic` is the person's own
 * account topic, or admin:queues for an admin (both carry every new entry).
 */
export function useLiveSecurityLogPage(personId: string, topic: string, before: number | null) {
  useRealtimeInvalidation({
    topic,
    tables: ['security_log'],
    queryKeys: [securityLogQueryKey(personId)],
    enabled: personId !== '',
  });
  return useSecurityLogPage(personId, before);
}
