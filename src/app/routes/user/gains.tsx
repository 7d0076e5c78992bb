import { GainsReportPage } from '@/features/tax/components/gains-report-page';
import { useSession } from '@/lib/auth';

export default function GainsRoute() {
  const { user } = useSession();
  // The user area's guard renders this page only for a signed-in person.
  if (!user) return null;
  return <GainsReportPage userId={user.id} email={user.email ?? ''} />;
}
