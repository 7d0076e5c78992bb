import { toast } from 'sonner';
import { DELETE_USER_CONFIRMATION_MESSAGE, USER_DELETED_MESSAGE } from '../api/admin-messages';
import { useDeleteUser } from '../api/delete-user';
import type { AdminUser } from '../api/get-users';
import { ConfirmDialog } from './confirm-dialog';

/** The specification's confirmation before a person and all their data are deleted. */
export function DeleteUserDialog({ user, onClose }: { user: AdminUser | undefined; onClose: () => void }) {
  const deletion = useDeleteUser();

  const confirm = () => {
    if (!user) return;
    deletion.mutate(user.id, {
      onSuccess: () => {
        toast.success(USER_DELETED_MESSAGE);
        onClose();
      },
      onError: (error) => toast.error(error.message),
    });
  };

  return (
    <ConfirmDialog
      alert
      destructive
      open={user !== undefined}
      title={`Delete ${user?.fullName || user?.email}`}
      description={DELETE_USER_CONFIRMATION_MESSAGE}
      confirmLabel="Delete user"
      pendingLabel="Deleting…"
      isPending={deletion.isPending}
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}
