import { transactionsList, transactionsQueries } from '@/features/admin/api/get-transactions';
import { prefetchOpenList } from '@/features/admin/api/prefetch-open-list';
import { AdminPage } from '@/features/admin/components/admin-page';
import { TransactionsPage } from '@/features/admin/components/transactions-page';

prefetchOpenList('/admin/transactions', transactionsList, transactionsQueries, { withStatusTypes: true });

export default function AdminTransactionsRoute() {
  return (
    <AdminPage
      title="Transactions"
      description="Every transaction, newest first. Changing a status moves the balance at once."
    >
      <TransactionsPage />
    </AdminPage>
  );
}
