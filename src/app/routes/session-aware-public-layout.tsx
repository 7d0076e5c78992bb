import { Outlet } from 'react-router-dom';
import { PublicLayout } from '@/components/layouts/public-layout';
import { useSession } from '@/lib/auth';

/** The public shell for pages a person may reach signed in (a reset link signs them in): its bar says so. */
export default function SessionAwarePublicLayoutRoute() {
  const { session } = useSession();
  return (
    <PublicLayout signedIn={session !== null}>
      <Outlet />
    </PublicLayout>
  );
}
