import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { SessionPending } from '@/components/guards/session-pending';
import { useAuth } from '@/lib/auth';
import { signedInByEmailLink } from '../utils/signed-in-by-email-link';
import { AssuranceGate } from './assurance-gate';
import { AuthCard } from './auth-card';
import { SetNewPasswordForm } from './set-new-password-form';

/**
 * Where the e-mailed reset link lands: supabase-js has signed the person in from the link, so they set a
 * new password (typed twice, as strong as sign-up asks; after their authentication code if they have two-factor
 * authentication) and go on to their wallet, still signed in.
 */
export function UpdatePasswordPanel({ onUpdated }: { onUpdated: () => void }) {
  const { isLoading, session } = useAuth();

  if (isLoading) return <SessionPending />;
  if (!session) {
    return (
      <AuthCard title="Reset link expired" description="This password reset link is invalid or has expired.">
        <Link to="/reset-password" className={buttonVariants({ className: 'w-full' })}>
          Send a new reset link
        </Link>
      </AuthCard>
    );
  }
  if (!signedInByEmailLink(session)) {
    return (
      <AuthCard
        title="Open your reset link"
        description="A new password can be set here only from the link in a password reset e-mail. While logged in, change it with your current password instead."
      >
        <Link to="/user/account" className={buttonVariants({ className: 'w-full' })}>
          Change password in Account
        </Link>
      </AuthCard>
    );
  }
  // A person with two-factor authentication enters their code first: Auth changes their password from an
  // aal2 session only (supabase/auth issue 2091).
  return (
    <AssuranceGate>
      <AuthCard title="Set a new password" description={`For ${session.user.email ?? 'your account'}`}>
        <SetNewPasswordForm onUpdated={onUpdated} />
      </AuthCard>
    </AssuranceGate>
  );
}
