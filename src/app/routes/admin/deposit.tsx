import { AdminPage } from '@/features/admin/components/admin-page';
import { DepositForm } from '@/features/admin/components/deposit-form';

export default function AdminDepositRoute() {
  return (
    <AdminPage title="Deposit" description="Credit a user's wallet with a pending deposit.">
      <DepositForm />
    </AdminPage>
  );
}
