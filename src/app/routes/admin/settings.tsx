import { AdminPage } from '@/features/admin/components/admin-page';
import { LimitsForm } from '@/features/admin/components/limits-form';
import { SecurityHoldCard } from '@/features/admin/components/security-hold-card';

export default function AdminSettingsRoute() {
  return (
    <AdminPage title="Settings">
      <LimitsForm />
      <SecurityHoldCard />
    </AdminPage>
  );
}
