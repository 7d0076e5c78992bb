import { AdminPage } from '@/features/admin/components/admin-page';
import { BuyRequestsPage } from '@/features/admin/components/buy-requests-page';

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
