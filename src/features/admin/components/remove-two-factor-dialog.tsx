import { toast } from 'sonner';
import type { AdminUser } from '../api/get-users';
import { useRemoveTwoFactor } from '../api/remove-two-factor';
import { UserActionDialog } from './user-action-dialog';
import { NO_TWO_FACTOR_MESSAGE, TWO_FACTOR_REMOVED_MESSAGE } from '../api/admin-messages';

/** Recovery without the phone: an admin, having checked who asks, removes a person's two-factor authentication. */
export function RemoveTwoFactorDialog({
  user,
  onClose,
}: {
  user: AdminUser | undefined;
  onClose: () => void;
}) {
  return (
    <UserActionDialog
      user={user}
      action={useRemoveTwoFactor()}
      title={`Remove two-factor authentication of ${user?.fullName || user?.email}`}
      description="Only for a person who lost their authenticator app, once you have checked it is really them. They log in with their password alone until they set it up again. The removal is recorded in the audit log."
      confirmLabel="Remove two-factor authentication"
      pendingLabel="Removing…"
      announce={(removed) => {
        if (removed > 0) toast.success(TWO_FACTOR_REMOVED_MESSAGE);
        else toast.info(NO_TWO_FACTOR_MESSAGE);
      }}
      onClose={onClose}
    />
  );
}
