// @vitest-environment jsdom
import type { Factor, Session } from '@supabase/supabase-js';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AuthProvider, useSession } from '@/lib/auth';
import type { AnnouncedSessions } from '@/testing/supabase-announcing-sessions';
import { AssuranceGate } from './assurance-gate';

/** Stands in for the Supabase client: the test plays the session GoTrue would restore. */
const sessionChanges = vi.hoisted((): AnnouncedSessions => ({ listener: undefined }));

vi.mock('@/lib/supabase', async () =>
  (await import('@/testing/supabase-announcing-sessions')).supabaseAnnouncingSessions(sessionChanges, () =>
    Promise.resolve({ data: { role: 'user' } }),
  ),
);
vi.mock('@/lib/session-refresh', () => ({ startSessionRefresh: () => () => undefined }));

const base64Url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A restored session at `aal`, of a person with these factors. */
function sessionAt(aal: 'aal1' | 'aal2', factors: Pick<Factor, 'status'>[] = []): Session {
  const token = `${base64Url('{"alg":"HS256"}')}.${base64Url(JSON.stringify({ aal }))}.signature`;
  return { access_token: token, user: { id: 'person', factors } } as unknown as Session;
}

/** The area behind its gate, the session restored: what shows in the render that receives it. */
async function areaWith(session: Session, factorRequired = false) {
  sessionChanges.listener = undefined;
  const pageRenders: string[] = [];
  function Page() {
    pageRenders.push('page');
    return <p>Your Wallet</p>;
  }
  // As the router does: the area's layout renders once the stored session is restored.
  function Area() {
    const { session: restored } = useSession();
    if (!restored) return <p>Restoring the session</p>;
    return (
      <AssuranceGate factorRequired={factorRequired}>
        <Page />
      </AssuranceGate>
    );
  }
  render(
    <AuthProvider>
      <Area />
    </AuthProvider>,
  );
  await vi.waitFor(() => expect(sessionChanges.listener).toBeDefined());
  act(() => sessionChanges.listener?.('INITIAL_SESSION', session));
  return { pageRenders };
}

describe('AssuranceGate', () => {
  it('shows the page in the render that receives the session, with no "Loading…" between them', async () => {
    const { pageRenders } = await areaWith(sessionAt('aal1'));
    expect(screen.getByText('Your Wallet')).toBeInTheDocument();
    expect(screen.queryByText('Loading…')).not.toBeInTheDocument();
    expect(pageRenders).toHaveLength(1);
  });

  it('asks a person with an authenticator app for a code before any page of the area, at aal1', async () => {
    const { pageRenders } = await areaWith(sessionAt('aal1', [{ status: 'verified' }]));
    expect(screen.getByRole('heading', { name: 'Enter your authentication code' })).toBeInTheDocument();
    expect(pageRenders).toHaveLength(0);

    act(() =>
      sessionChanges.listener?.('MFA_CHALLENGE_VERIFIED', sessionAt('aal2', [{ status: 'verified' }])),
    );
    expect(screen.getByText('Your Wallet')).toBeInTheDocument();
  });

  it('sends an admin without an authenticator app to set one up where the area requires it', async () => {
    const { pageRenders } = await areaWith(sessionAt('aal1'), true);
    expect(screen.getByRole('heading', { name: 'Set up two-factor authentication' })).toBeInTheDocument();
    expect(pageRenders).toHaveLength(0);
  });
});
