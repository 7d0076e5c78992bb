import { WithdrawPage } from '@/features/withdraw/components/withdraw-page';
import { useSession } from '@/lib/auth';

export default function WithdrawRoute() {
  const { user } = useSession();
  // The user area's guard renders this page only for a signed-in person.
  if (!user) return null;
  return <WithdrawPage userId={user.id} />;
}
