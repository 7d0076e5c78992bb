import { prefetchOpenList } from '@/features/admin/api/prefetch-open-list';
import { AdminPage } from '@/features/admin/components/admin-page';
import { transactionsLedger } from '@/features/admin/components/transactions-ledger';
import { LedgerPage } from '@/features/admin/components/ledger-page';

prefetchOpenList('/admin/transactions', transactionsLedger.list, { withStatusTypes: true });

export default function AdminTransactionsRoute() {
  return (
    <AdminPage
      title="Transactions"
      description="Every transaction, newest first. Changing a status moves the balance at once."
    >
      <LedgerPage kind={transactionsLedger} />
    </AdminPage>
  );
}
