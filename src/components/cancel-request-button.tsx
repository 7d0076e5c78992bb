import { useState } from 'react';
import type { QueryKey } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogHeading } from '@/components/ui/dialog';
import { useCodePrompt } from '@/components/two-factor-code-dialog';
import { CANCEL_FAILED_MESSAGE, useCancelRequest, type CancellableKind } from '@/lib/cancel-request';
import { submitWithStepUp } from '@/lib/step-up';

const RELEASED: Record<CancellableKind, string> = {
  buy: 'The amount it reserved is available again at once.',
  sell: 'The coins it reserved can be sold or kept again at once.',
  withdraw: 'The amount it reserved is available again at once.',
};

/**
 * 'Cancel' beside the person's own pending request: asks to confirm (naming what is cancelled), then for a code
 * when the person has a second factor, and cancels it once whatever the retries.
 */
export function CancelRequestButton({
  kind,
  requestId,
  userId,
  listKey,
  summary,
}: {
  kind: CancellableKind;
  requestId: string;
  userId: string;
  /** The list to refresh once it is cancelled. */
  listKey: QueryKey;
  /** What the request is, in the person's words: 'your buy of US$50.00 of Bitcoin'. */
  summary: string;
}) {
  const [open, setOpen] = useState(false);
  const cancel = useCancelRequest(userId, listKey);
  const { askForCode, codeDialog } = useCodePrompt(
    'Requests are cancelled only after a code from your authenticator app.',
  );

  const confirm = async () => {
    try {
      await submitWithStepUp(() => cancel.mutateAsync({ kind, requestId }), askForCode);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : CANCEL_FAILED_MESSAGE);
      return;
    }
    setOpen(false);
    toast.success('Request cancelled');
  };

  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} aria-label={`Cancel ${summary}`}>
        Cancel
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeading
            title="Cancel this request?"
            description={
              <>
                This cancels {summary}. {RELEASED[kind]}
              </>
            }
          />
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Keep it
            </Button>
            <Button variant="destructive" disabled={cancel.isPending} onClick={() => void confirm()}>
              {cancel.isPending ? 'Cancelling…' : 'Cancel request'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      {codeDialog}
    </>
  );
}
