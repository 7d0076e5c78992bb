import { useCallback, useRef, useState } from 'react';
import { LazyTwoFactorCodeForm } from '@/components/lazy-two-factor-code-form';
import { Dialog, DialogContent, DialogHeading } from '@/components/ui/dialog';

/**
 * Asks for the code of the person's authenticator app in a dialog, for an action the server serves only at
 * aal2 (step-up): `askForCode()` resolves true once the code is verified, false when the dialog is closed.
 */
export function useCodePrompt(description: string) {
  const [open, setOpen] = useState(false);
  const answer = useRef<(verified: boolean) => void>(undefined);

  const settle = (verified: boolean) => {
    answer.current?.(verified);
    answer.current = undefined;
    setOpen(false);
  };

  const askForCode = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        answer.current = resolve;
        setOpen(true);
      }),
    [],
  );

  const codeDialog = (
    <Dialog open={open} onOpenChange={(next) => !next && settle(false)}>
      <DialogContent>
        <DialogHeading title="Enter your authentication code" description={description} />
        <LazyTwoFactorCodeForm onVerified={() => settle(true)} />
      </DialogContent>
    </Dialog>
  );
  return { askForCode, codeDialog };
}
