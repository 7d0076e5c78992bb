import { RecurringBuysPage } from '@/features/recurring-buys/components/recurring-buys-page';
import { useSession } from '@/lib/auth';

export default function RecurringBuysRoute() {
  const { user } = useSession();
  // The user area's guard renders this page only for a signed-in person.
  if (!user) return null;
  return <RecurringBuysPage userId={user.id} />;
}
