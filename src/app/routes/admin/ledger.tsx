import { AdminPage } from '@/features/admin/components/admin-page';
import { ReconciliationPage } from '@/features/proof/components/reconciliation-page';

export default function AdminLedgerRoute() {
  return (
    <AdminPage
      title="Ledger"
      description="The reconciliation report: the journal's chain verified, balances and holdings recomputed from it, every difference named."
    >
      <ReconciliationPage />
    </AdminPage>
  );
}
