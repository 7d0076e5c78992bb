import { UpdatePassword } from '@supabase/auth-ui-react';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { buttonVariants } from '@/components/ui/button';
import { SessionPending } from '@/components/guards/session-pending';
import { useAuth } from '@/lib/auth';
import { supabase } from '@/lib/supabase';
import { cn } from '@/lib/utils';
import { passwordUpdatedMessage } from '../api/change-password';
import { signedInByEmailLink } from '../utils/signed-in-by-email-link';
import { AuthCard } from './auth-card';

/** auth-ui's own look switched off (`extend: false`); our input, label and button classes instead. */
const appearance = {
  extend: false,
  className: {
    container: 'grid gap-4',
    label: 'mb-2 block text-sm leading-none font-medium',
    input:
      'border-input bg-background placeholder:text-muted-foreground focus-visible:ring-ring flex h-10 w-full rounded-md border px-3 py-2 text-base shadow-xs focus-visible:ring-2 focus-visible:ring-offset-1 focus-visible:outline-none md:text-sm',
    button: cn(buttonVariants(), 'w-full'),
    message: 'text-destructive block text-sm',
  },
};

const localization = {
  variables: {
    update_password: {
      password_label: 'New password',
      password_input_placeholder: 'At least 6 characters',
      button_label: 'Update password',
      loading_button_label: 'Updating password…',
      confirmation_text: passwordUpdatedMessage,
    },
  },
};

/**
 * Where the e-mailed reset link lands: supabase-js has signed the person in from the link, so they set a
 * new password (auth-ui's update-password view) and go on to their dashboard, still signed in.
 */
export function UpdatePasswordPanel({ onUpdated }: { onUpdated: () => void }) {
  const { isLoading, session } = useAuth();

  useEffect(() => {
    const {
      data: { subscription },
    } = supabase.auth.onAuthStateChange((event) => {
      if (event !== 'USER_UPDATED') return;
      toast.success(passwordUpdatedMessage);
      onUpdated();
    });
    return () => subscription.unsubscribe();
  }, [onUpdated]);

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
  return (
    <AuthCard title="Set a new password" description={`For ${session.user.email ?? 'your account'}`}>
      <UpdatePassword supabaseClient={supabase} appearance={appearance} localization={localization} />
    </AuthCard>
  );
}
