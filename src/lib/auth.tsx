import type { Session, User } from '@supabase/supabase-js';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { startSessionRefresh } from './session-refresh';
import { supabase } from './supabase';

export type Role = 'admin' | 'user';

export interface AuthState {
  session: Session | null;
  user: User | null;
  /** `null` when nobody is signed in (spec §4). */
  role: Role | null;
  isAdmin: boolean;
  /** True until the stored session has been restored and the signed-in user's role read. */
  isLoading: boolean;
}

const AuthContext = createContext<AuthState | undefined>(undefined);

/** The role stored in the user's profile; `user` when the profile or its role is missing (spec §4). */
async function readRole(userId: string): Promise<Role> {
  const { data } = await supabase.from('profiles').select('role').eq('id', userId).maybeSingle();
  return data?.role === 'admin' ? 'admin' : 'user';
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<Pick<AuthState, 'session' | 'role' | 'isLoading'>>({
    session: null,
    role: null,
    isLoading: true,
  });

  useEffect(() => {
    let latestChange = 0;
    let signedInUserId: string | null = null;
    const {
      data: { subscription },
    } = supabase.auth.onAuthStateChange((_event, session) => {
      const change = ++latestChange;
      const userId = session?.user.id ?? null;
      const sameUser = userId === signedInUserId;
      if (!sameUser) {
        // Someone else's (or nobody's) data must never show from the cache.
        queryClient.clear();
        signedInUserId = userId;
      }
      if (!session) {
        setState({ session: null, role: null, isLoading: false });
        return;
      }
      // A new person waits for their role; the same person (token refreshed) keeps theirs meanwhile.
      setState((previous) =>
        sameUser ? { ...previous, session } : { session, role: null, isLoading: true },
      );
      // supabase-js forbids awaiting its own calls inside this callback (it holds a lock), so defer.
      setTimeout(() => {
        void readRole(session.user.id).then((role) => {
          if (change === latestChange) setState({ session, role, isLoading: false });
        });
      }, 0);
    });
    const stopSessionRefresh = startSessionRefresh(supabase.auth);
    return () => {
      subscription.unsubscribe();
      stopSessionRefresh();
    };
  }, [queryClient]);

  const value: AuthState = {
    ...state,
    user: state.session?.user ?? null,
    isAdmin: state.role === 'admin',
  };
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

// The hook lives beside its provider so every feature imports both from one place.
// eslint-disable-next-line react-refresh/only-export-components
export function useAuth(): AuthState {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
