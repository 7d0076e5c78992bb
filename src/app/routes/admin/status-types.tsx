import { AdminPage } from '@/features/admin/components/admin-page';
import { StatusTypesPage } from '@/features/admin/components/status-types-page';

export default function AdminStatusTypesRoute() {
  return (
    <AdminPage
      title="Status types"
      description="Statuses offered beside the built-in ones for transactions and withdraw requests."
    >
      <StatusTypesPage />
    </AdminPage>
  );
}
