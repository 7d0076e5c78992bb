import { useEffect, useState } from 'react';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import type { TransactionLimits } from '@/lib/transaction-limits';

/** The specification's delay before the notice appears on a page's first visit in a browser session. */
export const LIMITS_NOTICE_DELAY_MS = 1500;

const usd = (amount: number) => amount.toLocaleString('en-US', { style: 'currency', currency: 'USD' });

/**
 * 'Important Transaction Limits': shown once per browser session and page, 1.5 s after the page opens,
 * only when the limits loaded and the maximum is above 0. Dismissing it sets `sessionFlag` in
 * session storage so it does not come back in this session.
 */
export function LimitsNotice({
  limits,
  sessionFlag,
}: {
  limits: TransactionLimits | undefined;
  sessionFlag: string;
}) {
  const [open, setOpen] = useState(false);
  const ready = limits !== undefined && limits.maxAmount > 0;

  useEffect(() => {
    if (!ready || sessionStorage.getItem(sessionFlag)) return;
    const timer = setTimeout(() => setOpen(true), LIMITS_NOTICE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [ready, sessionFlag]);

  const dismiss = () => {
    sessionStorage.setItem(sessionFlag, 'true');
    setOpen(false);
  };

  if (!limits) return null;
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : dismiss())}>
      <DialogContent hideClose>
        <DialogHeader>
          <DialogTitle>Important Transaction Limits</DialogTitle>
          <DialogDescription>Every request must stay within these amounts.</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-2 gap-3 text-sm">
          <div className="bg-muted rounded-lg p-3">
            <dt className="text-muted-foreground">Minimum amount</dt>
            <dd className="text-base font-semibold tabular-nums">{usd(limits.minAmount)}</dd>
          </div>
          <div className="bg-muted rounded-lg p-3">
            <dt className="text-muted-foreground">Maximum amount</dt>
            <dd className="text-base font-semibold tabular-nums">{usd(limits.maxAmount)}</dd>
          </div>
        </dl>
        <DialogFooter>
          <button
            type="button"
            onClick={dismiss}
            className="bg-primary text-primary-foreground focus-visible:ring-ring inline-flex h-10 items-center justify-center rounded-md px-4 text-sm font-medium hover:opacity-90 focus-visible:ring-2 focus-visible:ring-offset-2 focus-visible:outline-none"
          >
            I Understand
          </button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
