import { usersList, usersQueries } from '@/features/admin/api/get-users';
import { prefetchOpenList } from '@/features/admin/api/prefetch-open-list';
import { AdminPage } from '@/features/admin/components/admin-page';
import { UsersPage } from '@/features/admin/components/users-page';

prefetchOpenList('/admin/users', usersList, usersQueries);

export default function AdminUsersRoute() {
  return (
    <AdminPage title="Users" description="Everyone with an account, newest first.">
      <UsersPage />
    </AdminPage>
  );
}
