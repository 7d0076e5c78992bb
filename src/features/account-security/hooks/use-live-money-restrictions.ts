import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSession } from '@/lib/auth';
import { liveTopics, useRealtimeInvalidation } from '@/lib/realtime';
import { moneyRestrictionsQueryKey, useMoneyRestrictions } from '../api/get-money-restrictions';

/** A lock or hold is rare and must not stay unseen: read once more after its broadcast (src/lib/table-changes.ts). */
const READ_AGAIN_AFTER_MS = 500;
/** setTimeout's longest wait (about 24.8 days); a hold may run 30. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * The person's lock, security hold and freeze, read again when one starts or ends (broadcast on their account
 * topic: a lock, an admin lifting it, a password change, a freeze or unfreeze) and when a hold runs out by itself, which the
 * database does not broadcast.
 */
export function useLiveMoneyRestrictions() {
  const { user } = useSession();
  const queryClient = useQueryClient();
  useRealtimeInvalidation({
    topic: liveTopics.account(user?.id ?? ''),
    tables: ['withdrawal_locks', 'security_holds', 'account_freezes'],
    queryKeys: [moneyRestrictionsQueryKey],
    readAgainAfterMs: READ_AGAIN_AFTER_MS,
    enabled: user !== null,
  });
  const restrictions = useMoneyRestrictions();

  const holdUntil = restrictions.data?.holdUntil;
  useEffect(() => {
    if (!holdUntil) return;
    const wait = Math.min(Math.max(new Date(holdUntil).getTime() - Date.now(), 0), LONGEST_TIMER_MS);
    const timer = setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: moneyRestrictionsQueryKey }),
      wait,
    );
    return () => clearTimeout(timer);
  }, [holdUntil, queryClient]);

  return restrictions;
}
