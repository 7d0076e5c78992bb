import { startTransition, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogHeading } from '@/components/ui/dialog';
import { afterNextPaint } from '@/lib/after-next-paint';
import { formatUsd } from '@/lib/format';
import { sessionFlagIsSet, setSessionFlag } from '@/lib/session-flags';
import { limitsAreSet, type TransactionLimits } from '@domain/limits.ts';

/** The specification's delay before the notice appears on a page's first visit in a browser session. */
export const LIMITS_NOTICE_DELAY_MS = 1500;

/** A field the person may be typing in when the notice comes up. */
function isTypingIn(element: Element | null): boolean {
  return (
    element instanceof HTMLInputElement ||
    element instanceof HTMLTextAreaElement ||
    element instanceof HTMLSelectElement ||
    (element instanceof HTMLElement && element.isContentEditable)
  );
}

/**
 * 'Important Transaction Limits': shown once per browser session and page, 1.5 s after the page opens
 * (at once when the limits arrive later), only when the limits loaded and the maximum is above 0.
 * Dismissing it sets `sessionFlag` for the browser session (every tab), so it does not come back in this
 * session. When it comes up while the person is typing in a field, it shows without taking the focus or the
 * keys (not modal): their typing goes on where it was, and the notice stays until they press I Understand.
 */
export function LimitsNotice({
  limits,
  sessionFlag,
}: {
  limits: TransactionLimits | undefined;
  sessionFlag: string;
}) {
  const [stage, setStage] = useState<'waiting' | 'open' | 'dismissed'>('waiting');
  const understood = useRef<HTMLButtonElement>(null);
  const [besideTyping, setBesideTyping] = useState(false);
  // The delay runs from the page's opening, not from the limits' answer: on a slow network the notice
  // would otherwise come seconds after the page, over a person already reading or working in it.
  const [openedAt] = useState(Date.now);
  const ready = limits !== undefined && limitsAreSet(limits);

  useEffect(() => {
    if (!ready || sessionFlagIsSet(sessionFlag)) return;
    const timer = setTimeout(
      () => {
        const typing = isTypingIn(document.activeElement);
        // A transition renders the notice in slices: all at once it blocked the page for one long task
        // (about 35 ms here, some 150 ms on Lighthouse's 4x slower phone) as the page finished loading.
        startTransition(() => {
          setBesideTyping(typing);
          setStage('open');
        });
      },
      Math.max(0, openedAt + LIMITS_NOTICE_DELAY_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [ready, sessionFlag, openedAt]);

  const dismiss = () => {
    setSessionFlag(sessionFlag);
    setStage('dismissed');
  };

  // The dialog mounts open, so that it renders in the transition above: mounted closed, Radix would render
  // its content only in a second, synchronous render after the transition's (its presence, from 'unmounted').
  if (!limits || stage === 'waiting') return null;
  return (
    // Nothing but the timer opens it (there is no trigger): Radix only ever asks to close it.
    <Dialog open={stage === 'open'} modal={!besideTyping} onOpenChange={(next) => !next && dismiss()}>
      <DialogContent
        hideClose
        onOpenAutoFocus={(event) => {
          // The focus moves to I Understand once the notice has been drawn, not in the task that opens it:
          // focusing at once forced the whole page's style and layout into that task, as the page loads.
          event.preventDefault();
          if (besideTyping) return;
          void afterNextPaint().then(() => {
            // A field taken while the notice was rendering: it stays beside the typing, as above.
            if (isTypingIn(document.activeElement)) setBesideTyping(true);
            else understood.current?.focus();
          });
        }}
        // Beside a form being filled, a click in the form is not an answer to the notice.
        onInteractOutside={(event) => besideTyping && event.preventDefault()}
      >
        <DialogHeading
          title="Important Transaction Limits"
          description="Every request must stay within these amounts."
        />
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
          <Button ref={understood} type="button" onClick={dismiss}>
            I Understand
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
