import { prefetchOpenList } from '@/features/admin/api/prefetch-open-list';
import { AdminPage } from '@/features/admin/components/admin-page';
import { auditLedger } from '@/features/admin/components/audit-ledger';
import { LedgerPage } from '@/features/admin/components/ledger-page';

prefetchOpenList('/admin/audit-log', auditLedger.list);

export default function AdminAuditLogRoute() {
  return (
    <AdminPage title="Audit log" description="Who did what to which record, and when.">
      <LedgerPage kind={auditLedger} />
    </AdminPage>
  );
}
