import { PriceAlertsPage } from '@/features/price-alerts/components/price-alerts-page';
import { useSession } from '@/lib/auth';

export default function PriceAlertsRoute() {
  const { user } = useSession();
  // The user area's guard renders this page only for a signed-in person.
  if (!user) return null;
  return <PriceAlertsPage userId={user.id} />;
}
