import type { Session, User } from '@supabase/supabase-js';
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type Dispatch,
  type ReactNode,
  type SetStateAction,
} from 'react';
import { afterFirstContentfulPaint } from './after-first-paint';
import { afterDelayWhenIdle } from './when-idle';
import { announceError } from './error-notices';
import { loadSessionClient } from './session-client';
import { hasStoredSession } from './stored-session';
import type { supabase } from './supabase';

export type Role = 'admin' | 'user';

export interface AuthState {
  session: Session | null;
  user: User | null;
  /** `null` when nobody is signed in (spec §4). */
  role: Role | null;
  isAdmin: boolean;
  /** True until the stored session has been restored and the signed-in user's role read. */
  isLoading: boolean;
  /**
   * True until the stored session has been restored: from then on `session` says who is signed in, while
   * their role (and Auth's word that the session still stands) may still be on its way.
   */
  isRestoring: boolean;
}

const AuthContext = createContext<AuthState | undefined>(undefined);

/** Who is signed in, apart from their role: see `useSession`. */
interface SessionContextValue {
  session: Session | null;
  user: User | null;
  /** Loads the Supabase client and restores the session; idempotent. */
  start: () => void;
}

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

/** The role stored in the user's profile; `user` when the profile or its role is missing (spec §4). */
async function readRole(client: typeof supabase, userId: string): Promise<Role> {
  const { data } = await client.from('profiles').select('role').eq('id', userId).maybeSingle();
  return data?.role === 'admin' ? 'admin' : 'user';
}

export const SESSION_ENDED_MESSAGE =
  'Your session has ended: the account was removed or signed out elsewhere. Please log in again.';

/**
 * Whether Auth says the session's person or session is gone (an admin deleted them, or they signed out
 * everywhere): the access token stays valid until it expires, so without this check the app would
 * half-work on an empty account. Auth answers `user_not_found` or `session_not_found` (supabase/auth
 * internal/api/auth.go, maybeLoadUserOrSession); supabase-js turns the latter into AuthSessionMissingError.
 * Asked with the session's token: without one, supabase-js holds its session lock for the whole round trip,
 * and every read (each asks for the session) and the area's assurance-level check would wait for it.
 */
async function sessionIsGone(client: typeof supabase, accessToken: string): Promise<boolean> {
  const { error } = await client.auth.getUser(accessToken);
  if (!error) return false;
  return error.name === 'AuthSessionMissingError' || ('code' in error && error.code === 'user_not_found');
}

/** Signs out on this device only (the server has no session left to end) and says why. */
async function signOutEndedSession(client: typeof supabase): Promise<void> {
  await client.auth.signOut({ scope: 'local' });
  announceError(SESSION_ENDED_MESSAGE);
}

type SessionState = Pick<AuthState, 'session' | 'role' | 'isLoading' | 'isRestoring'>;

/**
 * Follows the client's session, reading each newly signed-in person's role, until the returned
 * function is called. `forgetCachedData` runs whenever the person changes.
 */
function followSession(
  client: typeof supabase,
  setState: Dispatch<SetStateAction<SessionState>>,
  forgetCachedData: () => void,
): () => void {
  let latestChange = 0;
  let signedInUserId: string | null = null;
  const {
    data: { subscription },
  } = client.auth.onAuthStateChange((event, session) => {
    const change = ++latestChange;
    const userId = session?.user.id ?? null;
    const sameUser = userId === signedInUserId;
    if (!sameUser) {
      // Someone else's (or nobody's) data must never show from the cache. The session restored at start
      // is the one every read so far was sent with (supabase-js sends none before restoring it), so what
      // a page read ahead of the role check (an admin list opened by a link) is kept.
      if (event !== 'INITIAL_SESSION') forgetCachedData();
      signedInUserId = userId;
    }
    if (!session) {
      setState({ session: null, role: null, isLoading: false, isRestoring: false });
      return;
    }
    // A new person waits for their role; the same person (token refreshed) keeps theirs meanwhile.
    // A transition, as the role's arrival below: the user area renders on the session alone.
    startTransition(() =>
      setState((previous) =>
        sameUser ? { ...previous, session } : { session, role: null, isLoading: true, isRestoring: false },
      ),
    );
    // supabase-js forbids awaiting its own calls inside this callback (it holds a lock), so defer; and until
    // the browser is idle: a page that needs only the session (the wallet) renders and paints first, its
    // own reads not queued behind these two round trips.
    afterDelayWhenIdle(0, () => {
      void (async () => {
        // Asked together, so the check costs no extra round trip before the first page shows.
        const [gone, role] = await Promise.all([
          sameUser ? false : sessionIsGone(client, session.access_token),
          readRole(client, session.user.id),
        ]);
        // supabase-js itself may already have dropped the session on Auth's answer (a later change),
        // but the person still learns why, unless someone else has signed in meanwhile.
        if (gone && (signedInUserId === null || signedInUserId === session.user.id)) {
          await signOutEndedSession(client);
        } else if (!gone && change === latestChange) {
          // A transition: what the role lets in (the admin area's first render) renders in slices the
          // browser can interrupt, not as one long task.
          startTransition(() => setState({ session, role, isLoading: false, isRestoring: false }));
        }
      })();
    });
  });
  return () => subscription.unsubscribe();
}

/** A sign-in link's redirect carries its session in the URL; the client must read it on arrival. */
function urlCarriesSession(): boolean {
  return /[#&?](access_token|error_description)=/.test(window.location.hash + window.location.search);
}

/**
 * Holds the session for the whole app, but loads the Supabase client (and restores the session) only
 * once a `useAuth` consumer mounts: the public pages never need it, and their visitors should not
 * download it. Once started it keeps running, so moving between areas never re-restores the session.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [started, setStarted] = useState(urlCarriesSession);
  const [state, setState] = useState<SessionState>({
    session: null,
    role: null,
    isLoading: true,
    isRestoring: true,
  });

  useEffect(() => {
    if (!started) return;
    let stopped = false;
    let stop = () => {};
    const follow = () =>
      void loadSessionClient().then(([{ supabase: client }, { startSessionRefresh }, { queryClient }]) => {
        if (stopped) return;
        const stopFollowing = followSession(client, setState, () => queryClient.clear());
        const stopSessionRefresh = startSessionRefresh(client.auth);
        stop = () => {
          stopFollowing();
          stopSessionRefresh();
        };
      });
    // A visitor (no stored session, none arriving in the URL) has nothing to restore: the client loads
    // after the page's first paint, which then does not share the network with supabase-js.
    let cancelWait = () => {};
    if (hasStoredSession() || urlCarriesSession()) follow();
    else cancelWait = afterFirstContentfulPaint(follow);
    return () => {
      stopped = true;
      cancelWait();
      stop();
    };
  }, [started]);

  const start = useCallback(() => setStarted(true), []);
  // Unchanged when only the role arrives, so the pages that need only the person do not render again.
  const sessionContext = useMemo(
    () => ({ session: state.session, user: state.session?.user ?? null, start }),
    [state.session, start],
  );
  const authState: AuthState = { ...state, user: sessionContext.user, isAdmin: state.role === 'admin' };
  return (
    <AuthContext.Provider value={authState}>
      <SessionContext.Provider value={sessionContext}>{children}</SessionContext.Provider>
    </AuthContext.Provider>
  );
}

// The hook lives beside its provider so every feature imports both from one place.
// eslint-disable-next-line react-refresh/only-export-components
export function useAuth(): AuthState {
  const authState = useContext(AuthContext);
  if (!authState) throw new Error('useAuth must be used within an AuthProvider');
  useSession(); // which starts the client
  return authState;
}

/**
 * Who is signed in (`null` before the stored session is restored, and for a visitor), without their role:
 * a page of the user area renders once the session is restored and not again when the role arrives a
 * moment later (on the wallet, a second render of the whole page while its first answers land).
 */
// eslint-disable-next-line react-refresh/only-export-components
export function useSession(): Pick<AuthState, 'session' | 'user'> {
  const context = useContext(SessionContext);
  if (!context) throw new Error('useSession must be used within an AuthProvider');
  const { start, session, user } = context;
  useEffect(start, [start]);
  return { session, user };
}
