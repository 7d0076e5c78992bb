import type { Session } from '@supabase/supabase-js';

/** Spec §9: refresh the access token 5 minutes before it expires. */
export const refreshMarginMs = 5 * 60_000;
const checkIntervalMs = 30_000;

/** The part of supabase-js's auth client the refresher needs. */
export interface RefreshableAuth {
  getSession(): Promise<{ data: { session: Session | null } }>;
  refreshSession(): Promise<unknown>;
}

/** How long before expiry to refresh: 5 minutes, or half the lifetime of a shorter-lived token. */
function marginFor(session: Session): number {
  const lifetimeMs = (session.expires_in ?? 0) * 1000;
  return lifetimeMs > 0 ? Math.min(refreshMarginMs, lifetimeMs / 2) : refreshMarginMs;
}

export function needsRefresh(session: Session, now: number): boolean {
  if (!session.expires_at || !session.refresh_token) return false;
  return session.expires_at * 1000 - now <= marginFor(session);
}

/**
 * supabase-js's own `autoRefreshToken` refreshes only 90 s before expiry, checks on a 30 s timer and
 * re-checks only when a tab becomes visible again. This adds the specification's 5-minute margin and
 * also checks when a sleeping machine wakes up (timers were paused, the window regains focus or the
 * network comes back), when a token may already be stale. Returns a function that stops it.
 */
export function startSessionRefresh(auth: RefreshableAuth): () => void {
  let running: Promise<void> | null = null;

  const check = () => {
    running ??= (async () => {
      try {
        const { data } = await auth.getSession();
        if (data.session && needsRefresh(data.session, Date.now())) await auth.refreshSession();
      } catch {
        // A failed refresh (offline, server down) is retried on the next check or wake-up.
      } finally {
        running = null;
      }
    })();
    return running;
  };

  const onWake = () => {
    if (document.visibilityState !== 'hidden') void check();
  };
  const timer = setInterval(() => void check(), checkIntervalMs);
  const wakeEvents = ['visibilitychange', 'focus', 'online', 'pageshow'] as const;
  for (const event of wakeEvents) window.addEventListener(event, onWake);
  void check();

  return () => {
    clearInterval(timer);
    for (const event of wakeEvents) window.removeEventListener(event, onWake);
  };
}
