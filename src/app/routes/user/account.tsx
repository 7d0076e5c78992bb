import { AuthCard } from '@/features/auth/components/auth-card';
import { ChangePasswordForm } from '@/features/auth/components/change-password-form';
import { SessionsCard } from '@/features/account-security/components/sessions-card';
import { CostBasisCard } from '@/features/tax/components/cost-basis-card';
import { TwoFactorCard } from '@/features/auth/components/two-factor-card';
import { AddressBookCard } from '@/features/protections/components/address-book-card';
import { FreezeCard } from '@/features/protections/components/freeze-card';
import { AntiPhishingPhraseCard } from '@/features/protections/components/anti-phishing-phrase-card';
import { SecurityHoldWarning } from '@/components/security-hold-warning';
import { useSession } from '@/lib/auth';

export default function AccountRoute() {
  const { user } = useSession();
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Account</h1>
      <SecurityHoldWarning />
      <AuthCard
        title="Change password"
        titleLevel="h2"
        align="start"
        description={user?.email ? `Signed in as ${user.email}` : undefined}
      >
        <ChangePasswordForm />
      </AuthCard>
      <SessionsCard />
      {user && <TwoFactorCard userId={user.id} />}
      <FreezeCard />
      <AntiPhishingPhraseCard />
      <AddressBookCard />
      {user && <CostBasisCard userId={user.id} />}
    </div>
  );
}
