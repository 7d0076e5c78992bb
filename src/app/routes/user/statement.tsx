import { StatementPage } from '@/features/statements/components/statement-page';
import { useAuth } from '@/lib/auth';

export default function StatementRoute() {
  const { user } = useAuth();
  // The user area's guard renders this page only for a signed-in person.
  if (!user) return null;
  return <StatementPage userId={user.id} email={user.email ?? ''} />;
}
