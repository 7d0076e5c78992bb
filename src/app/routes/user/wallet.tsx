import { MyProofCard } from '@/features/proof/components/my-proof-card';
import { StatementCard } from '@/features/statements/components/statement-card';
import { WalletPage } from '@/features/wallet/components/wallet-page';
import { useAuth } from '@/lib/auth';

export default function WalletRoute() {
  const { user } = useAuth();
  // The user area's guard renders this page only for a signed-in person.
  if (!user) return null;
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6">
      <WalletPage userId={user.id} />
      <StatementCard userId={user.id} />
      <MyProofCard />
    </div>
  );
}
