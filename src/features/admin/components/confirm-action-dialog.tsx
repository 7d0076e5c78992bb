import { useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { formatUsd } from '@/lib/format';
import { runAdminAction } from './run-admin-action';

/** An admin action that moves money or cannot be undone, waiting for the admin to confirm it. */
export interface PendingAdminAction {
  /** What happens, e.g. 'Approve buy request'. */
  title: string;
  person: { name: string; email: string };
  /** What the request is about beyond its amount, e.g. the coin and quantity of a sale. */
  details?: readonly { term: string; description: string }[];
  amount: number;
  /** The person's available balance now, when the action takes from or adds to it. */
  available?: number;
  /** What confirming does to the money and whether it is final, in a sentence. */
  consequence: string;
  confirmLabel: string;
  destructive?: boolean;
  successMessage: string;
  /** Runs the action; throws an Error whose message a person can read. */
  run: () => Promise<unknown>;
}

/**
 * Asks before an admin action that moves money or is final, naming the person, the amount and their
 * available balance; the action runs only on the confirm button.
 */
export function ConfirmActionDialog({
  action,
  onClose,
}: {
  action: PendingAdminAction | undefined;
  onClose: () => void;
}) {
  const [running, setRunning] = useState(false);

  const confirm = async () => {
    if (!action) return;
    setRunning(true);
    await runAdminAction(action);
    setRunning(false);
    onClose();
  };

  return (
    <Dialog open={action !== undefined} onOpenChange={(open) => !open && !running && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{action?.title}</DialogTitle>
          <DialogDescription>{action?.consequence}</DialogDescription>
        </DialogHeader>
        {action && (
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-muted-foreground">Person</dt>
            <dd className="break-all">
              {action.person.name || action.person.email}
              {action.person.name && (
                <span className="text-muted-foreground block text-xs">{action.person.email}</span>
              )}
            </dd>
            {action.details?.map(({ term, description }) => (
              <div key={term} className="contents">
                <dt className="text-muted-foreground">{term}</dt>
                <dd className="tabular-nums">{description}</dd>
              </div>
            ))}
            <dt className="text-muted-foreground">Amount</dt>
            <dd className="font-medium tabular-nums">{formatUsd(action.amount)}</dd>
            {action.available !== undefined && (
              <>
                <dt className="text-muted-foreground">Available balance</dt>
                <dd className="tabular-nums">{formatUsd(action.available)}</dd>
              </>
            )}
          </dl>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={running}>
            Cancel
          </Button>
          <Button
            variant={action?.destructive ? 'destructive' : 'default'}
            onClick={() => void confirm()}
            disabled={running}
          >
            {action?.confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
