import { toast } from 'sonner';
import { DELETE_USER_CONFIRMATION_MESSAGE, USER_DELETED_MESSAGE } from '../api/admin-messages';
import { useDeleteUser } from '../api/delete-user';
import type { AdminUser } from '../api/get-users';
import { UserActionDialog } from './user-action-dialog';

/** The specification's confirmation before a person and all their data are deleted. */
export function DeleteUserDialog({ user, onClose }: { user: AdminUser | undefined; onClose: () => void }) {
  return (
    <UserActionDialog
      user={user}
      action={useDeleteUser()}
      title={`Delete ${user?.fullName || user?.email}`}
      description={DELETE_USER_CONFIRMATION_MESSAGE}
      confirmLabel="Delete user"
      pendingLabel="Deleting…"
      announce={() => toast.success(USER_DELETED_MESSAGE)}
      onClose={onClose}
    />
  );
}
