import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { SessionPending } from '@/components/guards/session-pending';
import { useAuth } from '@/lib/auth';
import { verifyResetLink } from '../api/verify-reset-link';
import { signedInByEmailLink } from '../utils/signed-in-by-email-link';
import { AssuranceGate } from './assurance-gate';
import { AuthCard } from './auth-card';
import { SetNewPasswordForm } from './set-new-password-form';

type LinkCheck = 'none' | 'checking' | 'failed' | 'done';

/**
 * A reset link that carries `token_hash` and `type=recovery` (the recovery e-mail template's
 * `{{ .TokenHash }}`): verified once, then taken out of the address, so reloading or going back does not
 * present a used token.
 */
function useResetLinkCheck(): LinkCheck {
  const [searchParams, setSearchParams] = useSearchParams();
  const tokenHash = searchParams.get('type') === 'recovery' ? searchParams.get('token_hash') : null;
  const [check, setCheck] = useState<LinkCheck>(tokenHash ? 'checking' : 'none');
  const started = useRef(false);
  useEffect(() => {
    if (!tokenHash || started.current) return;
    started.current = true;
    void verifyResetLink(tokenHash)
      .then(() => setCheck('done'))
      .catch(() => setCheck('failed'))
      .finally(() => setSearchParams({}, { replace: true }));
  }, [tokenHash, setSearchParams]);
  return check;
}

/**
 * Where the e-mailed reset link lands: supabase-js has signed the person in from the link (or the link's
 * `token_hash` is verified here, on whichever device opened it), so they set a
 * new password (typed twice, as strong as sign-up asks; after their authentication code if they have two-factor
 * authentication) and go on to their wallet, still signed in.
 */
export function UpdatePasswordPanel({ onUpdated }: { onUpdated: () => void }) {
  const { isLoading, session } = useAuth();
  const linkCheck = useResetLinkCheck();

  if (isLoading || linkCheck === 'checking') return <SessionPending />;
  if (!session || linkCheck === 'failed') {
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
