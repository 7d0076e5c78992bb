import type { AuthChangeEvent, Session } from '@supabase/supabase-js';

export type SessionListener = (event: AuthChangeEvent, session: Session | null) => void;

/** Where a test finds the listener the app registered, to play the session changes GoTrue would announce. */
export interface AnnouncedSessions {
  listener: SessionListener | undefined;
}

/**
 * Stands in for the Supabase client as `AuthProvider` uses it (`vi.mock('@/lib/supabase', …)`): it hands the
 * session listener to the test, finds every session still known to Auth, and answers the role read with
 * `readRole`.
 */
export function supabaseAnnouncingSessions(
  sessions: AnnouncedSessions,
  readRole: () => Promise<{ data: { role: string } }>,
) {
  return {
    supabase: {
      auth: {
        getUser: () => Promise.resolve({ data: { user: {} }, error: null }),
        onAuthStateChange: (listener: SessionListener) => {
          sessions.listener = listener;
          return { data: { subscription: { unsubscribe: () => undefined } } };
        },
      },
      from: () => ({ select: () => ({ eq: () => ({ maybeSingle: readRole }) }) }),
    },
  };
}
