import { buyRequestsList, buyRequestsQueries } from '@/features/admin/api/get-buy-requests';
import { prefetchOpenList } from '@/features/admin/api/prefetch-open-list';
import { AdminPage } from '@/features/admin/components/admin-page';
import { BuyRequestsPage } from '@/features/admin/components/buy-requests-page';

prefetchOpenList('/admin/buy-requests', buyRequestsList, buyRequestsQueries);

export default function AdminBuyRequestsRoute() {
  return (
    <AdminPage
      title="Buy requests"
      description="New requests and other admins' decisions appear here as they happen."
    >
      <BuyRequestsPage />
    </AdminPage>
  );
}
