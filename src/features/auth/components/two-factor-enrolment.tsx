import { useMutation } from '@tanstack/react-query';
import { CopyIcon } from 'lucide-react';
import { toast } from 'sonner';
import { TwoFactorCodeForm } from '@/components/two-factor-code-form';
import { Button } from '@/components/ui/button';
import { copyWithToast } from '@/lib/clipboard';
import { verifyFactorCode } from '@/lib/two-factor';
import { BACKUP_APP_NAME, enrolTotpFactor, FIRST_APP_NAME } from '../api/enrol-totp-factor';
import { ErrorMessage } from '@/components/error-message';
import { TWO_FACTOR_ON_MESSAGE } from '../api/auth-messages';

/** How the set-up reads: turning two-factor on, or adding a backup app once it is on. */
const wordings = {
  first: {
    name: FIRST_APP_NAME,
    start: 'Set up two-factor authentication',
    confirm: 'Turn on two-factor authentication',
    done: TWO_FACTOR_ON_MESSAGE,
  },
  backup: {
    name: BACKUP_APP_NAME,
    start: 'Add a backup authenticator app',
    confirm: 'Add the backup authenticator app',
    done: 'Backup authenticator app added',
  },
} as const;

/**
 * Setting up an authenticator app: the QR code Auth made (or its key to type in), then a code from the app
 * to confirm it, which also moves this session to aal2.
 */
export function TwoFactorEnrolment({
  onEnrolled,
  app = 'first',
}: {
  onEnrolled: () => void;
  app?: keyof typeof wordings;
}) {
  const wording = wordings[app];
  const enrolment = useMutation({ mutationFn: () => enrolTotpFactor(wording.name) });

  if (!enrolment.data) {
    return (
      <div className="grid gap-2">
        <Button
          type="button"
          className="justify-self-start"
          disabled={enrolment.isPending}
          onClick={() => enrolment.mutate()}
        >
          {enrolment.isPending ? 'Preparing…' : wording.start}
        </Button>
        {enrolment.isError && <ErrorMessage>Could not start the set-up. Please try again.</ErrorMessage>}
      </div>
    );
  }

  const { factorId, qrCode, secret } = enrolment.data;
  const copy = () => copyWithToast(secret, { copied: 'Key copied', failed: 'Could not copy the key' });
  return (
    <ol className="grid list-decimal gap-4 pl-5 text-sm">
      <li className="grid gap-2">
        <span>Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy…).</span>
        <img
          src={qrCode}
          alt="QR code to add CoinVault to your authenticator app"
          data-testid="two-factor-qr"
          className="rounded-md bg-white p-2"
        />
      </li>
      <li className="grid gap-2">
        <span>Or type this key into the app:</span>
        <div className="flex flex-wrap items-center gap-2">
          <code data-testid="two-factor-secret" className="bg-muted rounded px-2 py-1 font-mono break-all">
            {secret}
          </code>
          <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
            <CopyIcon aria-hidden />
            Copy key
          </Button>
        </div>
      </li>
      <li className="grid gap-2">
        <span>Enter the 6-digit code the app shows.</span>
        <TwoFactorCodeForm
          verify={(code) => verifyFactorCode(factorId, code)}
          submitLabel={wording.confirm}
          onVerified={() => {
            toast.success(wording.done);
            onEnrolled();
          }}
        />
      </li>
    </ol>
  );
}
