import { AdminPage } from '@/features/admin/components/admin-page';
import { WithdrawRequestsPage } from '@/features/admin/components/withdraw-requests-page';

export default function AdminWithdrawRequestsRoute() {
  return (
    <AdminPage
      title="Withdraw requests"
      description="New requests and other admins' decisions appear here as they happen."
    >
      <WithdrawRequestsPage />
    </AdminPage>
  );
}
