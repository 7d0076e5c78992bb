import type { UseMutationResult } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { AdminUser } from '../api/get-users';
import { ConfirmDialog } from './confirm-dialog';

/**
 * Asks before an action on a person that cannot be undone (an alert dialog, its button destructive); once
 * confirmed, runs `action` on the person, tells its outcome (`announce`) or its error, and closes.
 */
export function UserActionDialog<Result>({
  user,
  action,
  title,
  description,
  confirmLabel,
  pendingLabel,
  announce,
  onClose,
}: {
  user: AdminUser | undefined;
  action: UseMutationResult<Result, Error, string>;
  title: string;
  description: string;
  confirmLabel: string;
  pendingLabel: string;
  announce: (result: Result) => void;
  onClose: () => void;
}) {
  const confirm = () => {
    if (!user) return;
    action.mutate(user.id, {
      onSuccess: (result) => {
        announce(result);
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
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      pendingLabel={pendingLabel}
      isPending={action.isPending}
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}
