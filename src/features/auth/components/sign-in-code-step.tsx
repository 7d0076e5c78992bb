import { TwoFactorCodeForm } from '@/components/two-factor-code-form';
import { LostAuthenticatorNote } from './lost-authenticator-note';

/** The second step of logging in for a person with two-factor authentication. */
export function SignInCodeStep({ onVerified }: { onVerified: () => void }) {
  return (
    <div className="grid gap-4">
      <p className="text-sm">Enter the 6-digit code from your authenticator app to finish logging in.</p>
      <TwoFactorCodeForm onVerified={onVerified} />
      <LostAuthenticatorNote />
    </div>
  );
}
