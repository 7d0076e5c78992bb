import { prefetchOpenList } from '@/features/admin/api/prefetch-open-list';
import { AdminPage } from '@/features/admin/components/admin-page';
import { sellQueue } from '@/features/admin/components/sell-queue';
import { QueuePage } from '@/features/admin/components/queue-page';

prefetchOpenList('/admin/sell-requests', sellQueue.list);

export default function AdminSellRequestsRoute() {
  return (
    <AdminPage
      title="Sell requests"
      description="New sales and other admins' decisions appear here as they happen, priced at the current price."
    >
      <QueuePage kind={sellQueue} />
    </AdminPage>
  );
}
