import { auditLogList, auditLogQueries } from '@/features/admin/api/get-audit-log';
import { prefetchOpenList } from '@/features/admin/api/prefetch-open-list';
import { AdminPage } from '@/features/admin/components/admin-page';
import { AuditLogPage } from '@/features/admin/components/audit-log-page';

prefetchOpenList('/admin/audit-log', auditLogList, auditLogQueries);

export default function AdminAuditLogRoute() {
  return (
    <AdminPage title="Audit log" description="Who did what to which record, and when.">
      <AuditLogPage />
    </AdminPage>
  );
}
