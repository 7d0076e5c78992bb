import { prefetchOpenList } from '@/features/admin/api/prefetch-open-list';
import { AdminPage } from '@/features/admin/components/admin-page';
import { frozenAccountsLedger } from '@/features/admin/components/frozen-accounts-ledger';
import { LedgerPage } from '@/features/admin/components/ledger-page';

prefetchOpenList('/admin/frozen-accounts', frozenAccountsLedger.list);

export default function AdminFrozenAccountsRoute() {
  return (
    <AdminPage
      title="Frozen accounts"
      description="Accounts their owners froze. Two admins unfreeze one: the first asks, another confirms."
    >
      <LedgerPage kind={frozenAccountsLedger} />
    </AdminPage>
  );
}
