import { MyProofCard } from '@/features/proof/components/my-proof-card';
import { StatementCard } from '@/features/statements/components/statement-card';
import { WalletPage } from '@/features/wallet/components/wallet-page';
import { useDeferredValue } from 'react';
import { useSession } from '@/lib/auth';
import { cn, panelsDrawnNearScreen } from '@/lib/utils';

export default function WalletRoute() {
  const { user } = useSession();
  // False on the first render, true on a second one React makes once the first has been committed: what
  // lies below the first screen (on a phone, everything under the portfolio) then does not lengthen the
  // task that paints the first screen.
  const belowFirstScreen = useDeferredValue(true, false);
  // The user area's guard renders this page only for a signed-in person.
  if (!user) return null;
  return (
    <div className={cn('mx-auto grid w-full max-w-6xl gap-6', panelsDrawnNearScreen)}>
      <WalletPage userId={user.id} belowFirstScreen={belowFirstScreen} />
      {belowFirstScreen && (
        <>
          <StatementCard userId={user.id} />
          <MyProofCard />
        </>
      )}
    </div>
  );
}
