import { prefetchOpenList } from '@/features/admin/api/prefetch-open-list';
import { AdminPage } from '@/features/admin/components/admin-page';
import { withdrawQueue } from '@/features/admin/components/withdraw-queue';
import { QueuePage } from '@/features/admin/components/queue-page';

prefetchOpenList('/admin/withdraw-requests', withdrawQueue.list, { withStatusTypes: true });

export default function AdminWithdrawRequestsRoute() {
  return (
    <AdminPage
      title="Withdraw requests"
      description="New requests and other admins' decisions appear here as they happen."
    >
      <QueuePage kind={withdrawQueue} />
    </AdminPage>
  );
}
