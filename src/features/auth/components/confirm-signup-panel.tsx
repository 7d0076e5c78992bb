import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { buttonVariants } from '@/components/ui/button';
import { SessionPending } from '@/components/guards/session-pending';
import { useAuth } from '@/lib/auth';
import { readWalletCode } from '../api/read-wallet-code';
import { signUpSucceededMessage } from '../api/sign-up';
import { AuthCard } from './auth-card';

/**
 * Where the mailed confirmation link lands: supabase-js has exchanged the link's code for a session
 * (PKCE), so the person is welcomed with their wallet code, as after a sign-up without confirmation,
 * and goes on to their wallet.
 */
export function ConfirmSignupPanel({ onConfirmed }: { onConfirmed: () => void }) {
  const { isLoading, session } = useAuth();
  const welcomed = useRef(false);
  const userId = session?.user.id;

  useEffect(() => {
    if (!userId || welcomed.current) return;
    welcomed.current = true;
    void readWalletCode(userId)
      .then((walletCode) => toast.success(signUpSucceededMessage(walletCode)))
      .finally(onConfirmed);
  }, [userId, onConfirmed]);

  if (isLoading || session) return <SessionPending />;
  return (
    <AuthCard
      title="Confirmation link expired"
      description="This confirmation link is invalid, has expired, or was opened in another browser. Log in if you confirmed already."
    >
      <Link to="/login" className={buttonVariants({ className: 'w-full' })}>
        Go to log in
      </Link>
    </AuthCard>
  );
}
