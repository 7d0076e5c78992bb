// @vitest-environment jsdom
import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AuthProvider, useAuth, useSession } from './auth';
import { queryClient } from './query-client';
import type { AnnouncedSessions } from '@/testing/supabase-announcing-sessions';

/** Stands in for the Supabase client: the test plays the session changes GoTrue would announce. */
const sessionChanges = vi.hoisted((): AnnouncedSessions => ({ listener: undefined }));
/** The profile's answer to the role read; a test may hold it back. */
const roleRead = vi.hoisted(() => ({ answer: () => Promise.resolve({ data: { role: 'user' } }) }));

vi.mock('./supabase', async () =>
  (await import('@/testing/supabase-announcing-sessions')).supabaseAnnouncingSessions(sessionChanges, () =>
    roleRead.answer(),
  ),
);
vi.mock('./session-refresh', () => ({ startSessionRefresh: () => () => undefined }));

function ShowsRole() {
  const { role, isLoading } = useAuth();
  return <p>{isLoading ? 'loading' : (role ?? 'nobody')}</p>;
}

const sessionOf = (userId: string) => ({ user: { id: userId }, access_token: `token-${userId}` }) as Session;
const cachedBalance = () => queryClient.getQueryData(['balance']);

describe('useAuth', () => {
  it('refuses to work outside the AuthProvider', () => {
    // React reports the thrown error to the console as well; keep the test output readable.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<ShowsRole />)).toThrow('useAuth must be used within an AuthProvider');
  });

  it("forgets every cached server answer when the person changes, never on the same person's token refresh or on the session restored at start", async () => {
    render(
      <AuthProvider>
        <ShowsRole />
      </AuthProvider>,
    );
    await vi.waitFor(() => expect(sessionChanges.listener).toBeDefined());
    const announce = (event: AuthChangeEvent, session: Session | null) =>
      act(() => sessionChanges.listener?.(event, session));

    queryClient.setQueryData(['balance'], "Alice's balance, read with her restored session");
    announce('INITIAL_SESSION', sessionOf('alice'));
    expect(cachedBalance()).toBe("Alice's balance, read with her restored session");
    announce('SIGNED_OUT', null);
    expect(cachedBalance()).toBeUndefined();

    queryClient.setQueryData(['balance'], 'a visitor has none');
    announce('SIGNED_IN', sessionOf('alice'));
    expect(cachedBalance()).toBeUndefined();
    expect(await screen.findByText('user')).toBeInTheDocument();

    queryClient.setQueryData(['balance'], "Alice's balance");
    announce('TOKEN_REFRESHED', sessionOf('alice'));
    expect(cachedBalance()).toBe("Alice's balance");

    announce('SIGNED_IN', sessionOf('bob'));
    expect(cachedBalance()).toBeUndefined();

    queryClient.setQueryData(['balance'], "Bob's balance");
    announce('SIGNED_OUT', null);
    expect(cachedBalance()).toBeUndefined();
    expect(await screen.findByText('nobody')).toBeInTheDocument();
  });

  it('knows who is signed in from the restored session while their role is still being read', async () => {
    sessionChanges.listener = undefined;
    let answerRole: (answer: { data: { role: string } }) => void = () => {};
    roleRead.answer = () => new Promise((resolve) => (answerRole = resolve));
    function ShowsPerson() {
      const { user, role, isRestoring, isLoading } = useAuth();
      if (isRestoring) return <p>restoring</p>;
      return <p>{`${user?.id ?? 'nobody'}: ${isLoading ? 'role pending' : role}`}</p>;
    }
    render(
      <AuthProvider>
        <ShowsPerson />
      </AuthProvider>,
    );
    expect(screen.getByText('restoring')).toBeInTheDocument();
    await vi.waitFor(() => expect(sessionChanges.listener).toBeDefined());
    act(() => sessionChanges.listener?.('INITIAL_SESSION', sessionOf('alice')));
    expect(await screen.findByText('alice: role pending')).toBeInTheDocument();
    act(() => answerRole({ data: { role: 'admin' } }));
    expect(await screen.findByText('alice: admin')).toBeInTheDocument();
  });

  it('does not render a page that needs only the person again when their role arrives', async () => {
    sessionChanges.listener = undefined;
    let answerRole: (answer: { data: { role: string } }) => void = () => {};
    roleRead.answer = () => new Promise((resolve) => (answerRole = resolve));
    const pageRenders: string[] = [];
    function Page() {
      const { user } = useSession();
      pageRenders.push(user?.id ?? 'nobody');
      return <p>{user?.id ?? 'nobody'}</p>;
    }
    render(
      <AuthProvider>
        <ShowsRole />
        <Page />
      </AuthProvider>,
    );
    await vi.waitFor(() => expect(sessionChanges.listener).toBeDefined());
    act(() => sessionChanges.listener?.('INITIAL_SESSION', sessionOf('alice')));
    expect(await screen.findByText('alice')).toBeInTheDocument();
    const rendersBeforeTheRole = pageRenders.length;
    act(() => answerRole({ data: { role: 'user' } }));
    expect(await screen.findByText('user')).toBeInTheDocument();
    expect(pageRenders).toHaveLength(rendersBeforeTheRole);

    act(() => sessionChanges.listener?.('SIGNED_IN', sessionOf('bob')));
    expect(await screen.findByText('bob')).toBeInTheDocument();
  });
});
