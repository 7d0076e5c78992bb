import { AdminPage } from '@/features/admin/components/admin-page';
import { HoldingPeriodCard } from '@/features/admin/components/holding-period-card';
import { LimitsForm } from '@/features/admin/components/limits-form';
import { SecurityHoldCard } from '@/features/admin/components/security-hold-card';

export default function AdminSettingsRoute() {
  return (
    <AdminPage title="Settings">
      <LimitsForm />
      <SecurityHoldCard />
      <HoldingPeriodCard />
    </AdminPage>
  );
}
