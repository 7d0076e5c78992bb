import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogHeading } from '@/components/ui/dialog';

/**
 * Asks before an admin action; it runs only on the confirm button, and the dialog stays until it is done.
 * `destructive` colours that button as final. `alert` makes it an alert dialog, so a screen reader reads
 * its warning as it opens: for actions that cannot be undone (delete a person, remove their two-factor
 * authentication, delete a status type).
 */
export function ConfirmDialog({
  open,
  title,
  description,
  children,
  confirmLabel,
  pendingLabel = confirmLabel,
  isPending,
  confirmDisabled = false,
  destructive = false,
  alert = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: ReactNode;
  description: ReactNode;
  /** What the admin checks before confirming, between the description and the buttons. */
  children?: ReactNode;
  confirmLabel: ReactNode;
  pendingLabel?: ReactNode;
  isPending: boolean;
  confirmDisabled?: boolean;
  destructive?: boolean;
  alert?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && !isPending && onClose()}>
      <DialogContent role={alert ? 'alertdialog' : 'dialog'}>
        <DialogHeading title={title} description={description} />
        {children}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={isPending}>
            Cancel
          </Button>
          <Button
            variant={destructive ? 'destructive' : 'default'}
            onClick={onConfirm}
            disabled={isPending || confirmDisabled}
          >
            {isPending ? pendingLabel : confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
