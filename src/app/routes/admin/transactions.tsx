import { AdminPage } from '@/features/admin/components/admin-page';
import { TransactionsPage } from '@/features/admin/components/transactions-page';

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
