import { sellRequestsList, sellRequestsQueries } from '@/features/admin/api/get-sell-requests';
import { prefetchOpenList } from '@/features/admin/api/prefetch-open-list';
import { AdminPage } from '@/features/admin/components/admin-page';
import { SellRequestsPage } from '@/features/admin/components/sell-requests-page';

prefetchOpenList('/admin/sell-requests', sellRequestsList, sellRequestsQueries);

export default function AdminSellRequestsRoute() {
  return (
    <AdminPage
      title="Sell requests"
      description="New sales and other admins' decisions appear here as they happen, priced at the current price."
    >
      <SellRequestsPage />
    </AdminPage>
  );
}
