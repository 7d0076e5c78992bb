import { useParams } from 'react-router-dom';
import { PersonSecurityLog } from '@/features/account-security/components/security-log-page';
import { AdminPage } from '@/features/admin/components/admin-page';

export default function AdminPersonSecurityLogRoute() {
  const { personId = '' } = useParams();
  return (
    <AdminPage
      title="Security log"
      description="One person’s sign-ins and security changes, newest first, live."
    >
      <PersonSecurityLog personId={personId} />
    </AdminPage>
  );
}
