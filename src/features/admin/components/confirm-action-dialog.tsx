import { useId, useState } from 'react';
import { Label } from '@/components/ui/label';
import { formatUsd } from '@/lib/format';
import { ConfirmDialog } from './confirm-dialog';
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
  /** A rejection: the dialog asks why, and the person reads the answer. */
  asksReason?: boolean;
  /** Runs the action (with the reason given, when asked); throws an Error whose message a person can read. */
  run: (reason?: string) => Promise<unknown>;
}

/** The database keeps a rejection's reason up to this length. */
export const REASON_MAX_LENGTH = 500;

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
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const missingReason = Boolean(action?.asksReason) && reason.trim() === '';

  const close = () => {
    setReason('');
    onClose();
  };

  const confirm = async () => {
    if (!action || missingReason) return;
    setRunning(true);
    await runAdminAction({ ...action, run: () => action.run(action.asksReason ? reason.trim() : undefined) });
    setRunning(false);
    close();
  };

  return (
    <ConfirmDialog
      open={action !== undefined}
      title={action?.title}
      description={action?.consequence}
      confirmLabel={action?.confirmLabel}
      isPending={running}
      confirmDisabled={missingReason}
      destructive={action?.destructive}
      onConfirm={() => void confirm()}
      onClose={close}
    >
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
      {action?.asksReason && (
        <div className="grid gap-2">
          <Label htmlFor={reasonId}>Reason (the person reads it)</Label>
          <textarea
            id={reasonId}
            value={reason}
            maxLength={REASON_MAX_LENGTH}
            rows={3}
            required
            onChange={(event) => setReason(event.target.value)}
            className="border-input bg-background focus-visible:ring-ring rounded-md border px-3 py-2 text-sm focus-visible:ring-2 focus-visible:outline-none"
          />
        </div>
      )}
    </ConfirmDialog>
  );
}
