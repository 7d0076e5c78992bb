import { AdminPage } from '@/features/admin/components/admin-page';
import { LimitsForm } from '@/features/admin/components/limits-form';

export default function AdminSettingsRoute() {
  return (
    <AdminPage title="Settings">
      <LimitsForm />
    </AdminPage>
  );
}
