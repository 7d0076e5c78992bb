import { AdminPage } from '@/features/admin/components/admin-page';
import { UsersPage } from '@/features/admin/components/users-page';

export default function AdminUsersRoute() {
  return (
    <AdminPage title="Users" description="Everyone with an account, newest first.">
      <UsersPage />
    </AdminPage>
  );
}
