import { withdrawRequestsList, withdrawRequestsQueries } from '@/features/admin/api/get-withdraw-requests';
import { prefetchOpenList } from '@/features/admin/api/prefetch-open-list';
import { AdminPage } from '@/features/admin/components/admin-page';
import { WithdrawRequestsPage } from '@/features/admin/components/withdraw-requests-page';

prefetchOpenList('/admin/withdraw-requests', withdrawRequestsList, withdrawRequestsQueries, {
  withStatusTypes: true,
});

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
