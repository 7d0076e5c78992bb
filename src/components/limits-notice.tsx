import { useEffect, useState } from 'react';
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
import { sessionFlagIsSet, setSessionFlag } from '@/lib/session-flags';
import { limitsAreSet, type TransactionLimits } from '@domain/limits.ts';

/** The specification's delay before the notice appears on a page's first visit in a browser session. */
export const LIMITS_NOTICE_DELAY_MS = 1500;

/**
 * 'Important Transaction Limits': shown once per browser session and page, 1.5 s after the page opens,
 * only when the limits loaded and the maximum is above 0. Dismissing it sets `sessionFlag` for the
 * browser session (every tab), so it does not come back in this session.
 */
export function LimitsNotice({
  limits,
  sessionFlag,
}: {
  limits: TransactionLimits | undefined;
  sessionFlag: string;
}) {
  const [open, setOpen] = useState(false);
  const ready = limits !== undefined && limitsAreSet(limits);

  useEffect(() => {
    if (!ready || sessionFlagIsSet(sessionFlag)) return;
    const timer = setTimeout(() => setOpen(true), LIMITS_NOTICE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [ready, sessionFlag]);

  const dismiss = () => {
    setSessionFlag(sessionFlag);
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
            <dd className="text-base font-semibold tabular-nums">{formatUsd(limits.minAmount)}</dd>
          </div>
          <div className="bg-muted rounded-lg p-3">
            <dt className="text-muted-foreground">Maximum amount</dt>
            <dd className="text-base font-semibold tabular-nums">{formatUsd(limits.maxAmount)}</dd>
          </div>
        </dl>
        <DialogFooter>
          <Button type="button" onClick={dismiss}>
            I Understand
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
