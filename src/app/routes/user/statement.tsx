import { StatementPage } from '@/features/statements/components/statement-page';
import { useSession } from '@/lib/auth';

export default function StatementRoute() {
  const { user } = useSession();
  // The user area's guard renders this page only for a signed-in person.
  if (!user) return null;
  return <StatementPage userId={user.id} email={user.email ?? ''} />;
}
