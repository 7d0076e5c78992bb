import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { TwoFactorCodeForm } from '@/components/two-factor-code-form';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { totpFactorQueryKey, useTotpFactors } from '../api/get-totp-factor';
import { removeTotpFactors } from '../api/remove-totp-factor';
import { AuthCard } from './auth-card';
import { LostAuthenticatorNote } from './lost-authenticator-note';
import { TwoFactorEnrolment } from './two-factor-enrolment';
import { ErrorMessage } from '@/components/error-message';

/**
 * The account page's two-factor authentication: set up an authenticator app, then add a backup app (a second
 * factor, as Supabase recommends, so a lost phone does not lock the person out), or turn it off with a code.
 */
export function TwoFactorCard({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const factors = useTotpFactors(userId);
  const [removing, setRemoving] = useState(false);
  const reread = () => queryClient.invalidateQueries({ queryKey: totpFactorQueryKey(userId) });

  let content;
  if (factors.isPending) content = <Skeleton className="h-10" />;
  else if (factors.isError) content = <ErrorMessage>Error loading data. Please try again.</ErrorMessage>;
  else if (factors.data.length === 0) content = <TwoFactorEnrolment onEnrolled={() => void reread()} />;
  else {
    content = (
      <div className="grid gap-4">
        <p className="text-sm">
          On: every log-in asks for a code from your authenticator app, and so does a withdrawal from a
          session that has not entered one.
          {factors.data.length > 1 && ' A code from your backup app works as well.'}
        </p>
        {factors.data.length === 1 && !removing && (
          <div className="grid gap-2">
            <p className="text-muted-foreground text-sm">
              A backup: add the account to a second authenticator app (another phone or a password manager),
              so you can still log in if you lose the first.
            </p>
            <TwoFactorEnrolment app="backup" onEnrolled={() => void reread()} />
          </div>
        )}
        {removing ? (
          <div className="grid gap-2">
            <p className="text-sm">
              Enter a code from your authenticator app to turn two-factor authentication off.
            </p>
            <TwoFactorCodeForm
              verify={removeTotpFactors}
              submitLabel="Turn off two-factor authentication"
              onVerified={() => {
                setRemoving(false);
                toast.success('Two-factor authentication is off');
                void reread();
              }}
            />
          </div>
        ) : (
          <Button
            type="button"
            variant="outline"
            className="justify-self-start"
            onClick={() => setRemoving(true)}
          >
            Turn off two-factor authentication
          </Button>
        )}
      </div>
    );
  }

  return (
    <AuthCard
      title="Two-factor authentication"
      titleLevel="h2"
      align="start"
      description="A code from an authenticator app on your phone, asked at every log-in and before money leaves."
      footer={<LostAuthenticatorNote />}
    >
      {content}
    </AuthCard>
  );
}
