import { AdminPage } from '@/features/admin/components/admin-page';
import { AuditLogPage } from '@/features/admin/components/audit-log-page';

export default function AdminAuditLogRoute() {
  return (
    <AdminPage title="Audit log" description="Who did what to which record, and when.">
      <AuditLogPage />
    </AdminPage>
  );
}
