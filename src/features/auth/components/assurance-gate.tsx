import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { SessionPending } from '@/components/guards/session-pending';
import { useSession } from '@/lib/auth';
import { assuranceLevelOf, codeStillNeeded } from '@/lib/assurance-level';
import { AuthCard } from './auth-card';

// The code step and the enrolment (and their form code) load only for a session that must show one: the
// area's pages never wait for them.
const SignInCodeStep = lazy(() =>
  import('./sign-in-code-step').then(({ SignInCodeStep: component }) => ({ default: component })),
);
const TwoFactorEnrolment = lazy(() =>
  import('./two-factor-enrolment').then(({ TwoFactorEnrolment: component }) => ({ default: component })),
);

/**
 * A signed-in area's content only once the session has the level the database asks of it (Supabase's
 * "enforce MFA for users who have opted in"): a person with a factor enters their code first (a log-in left
 * at the code step, then another page opened), so an aal1 session never shows their money, which the
 * database would not serve it anyway. `factorRequired` (the admin area, where the database serves admins at
 * aal2 only) also sends a person without a factor to set one up first.
 */
export function AssuranceGate({
  factorRequired = false,
  children,
}: {
  factorRequired?: boolean;
  children: ReactNode;
}) {
  const { session } = useSession();
  // From the session itself, so a verified code (or a new factor), which gives the session a new token,
  // lets the area show in the render that receives it.
  const level = useMemo(() => assuranceLevelOf(session), [session]);

  if (codeStillNeeded(level)) {
    return (
      <AuthCard title="Enter your authentication code" titleLevel="h1">
        {/* A verified code changes the session, which reads the level again and lets the area show. */}
        <Suspense fallback={<SessionPending />}>
          <SignInCodeStep onVerified={() => {}} />
        </Suspense>
      </AuthCard>
    );
  }
  if (factorRequired && level.next !== 'aal2') {
    return (
      <AuthCard
        title="Set up two-factor authentication"
        titleLevel="h1"
        description="Admins work with two-factor authentication: every admin read and write needs a code from an authenticator app. Set it up to continue."
      >
        {/* Confirming the app's first code changes the session (aal2), which lets the area show. */}
        <Suspense fallback={<SessionPending />}>
          <TwoFactorEnrolment onEnrolled={() => {}} />
        </Suspense>
      </AuthCard>
    );
  }
  return children;
}
