import { prefetchOpenList } from '@/features/admin/api/prefetch-open-list';
import { AdminPage } from '@/features/admin/components/admin-page';
import { usersLedger } from '@/features/admin/components/users-ledger';
import { LedgerPage } from '@/features/admin/components/ledger-page';

prefetchOpenList('/admin/users', usersLedger.list);

export default function AdminUsersRoute() {
  return (
    <AdminPage title="Users" description="Everyone with an account, newest first.">
      <LedgerPage kind={usersLedger} />
    </AdminPage>
  );
}
