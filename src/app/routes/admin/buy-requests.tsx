import { prefetchOpenList } from '@/features/admin/api/prefetch-open-list';
import { AdminPage } from '@/features/admin/components/admin-page';
import { buyQueue } from '@/features/admin/components/buy-queue';
import { QueuePage } from '@/features/admin/components/queue-page';

prefetchOpenList('/admin/buy-requests', buyQueue.list);

export default function AdminBuyRequestsRoute() {
  return (
    <AdminPage
      title="Buy requests"
      description="New requests and other admins' decisions appear here as they happen."
    >
      <QueuePage kind={buyQueue} />
    </AdminPage>
  );
}
