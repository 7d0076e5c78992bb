import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { DELETE_USER_CONFIRMATION, USER_DELETED_MESSAGE } from '../api/admin-messages';
import { useDeleteUser } from '../api/delete-user';
import type { AdminUser } from '../api/get-users';

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
    <Dialog open={user !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete {user?.fullName || user?.email}</DialogTitle>
          <DialogDescription>{DELETE_USER_CONFIRMATION}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={deletion.isPending}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={confirm} disabled={deletion.isPending}>
            {deletion.isPending ? 'Deleting…' : 'Delete user'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
