import { CheckIcon, XIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** Approve and Reject for a request that waits for a decision, named after whose request it is. */
export function DecisionButtons({
  subject,
  disabled,
  canApprove,
  onApprove,
  onReject,
}: {
  /** Whose request, e.g. 'Jane Doe's request of $100.00', for the buttons' accessible names. */
  subject: string;
  disabled: boolean;
  /** Without it (an expired request) the request can only be rejected (closed). */
  canApprove: boolean;
  onApprove: () => void;
  onReject: () => void;
}) {
  return (
    <>
      {canApprove && (
        <Button size="sm" disabled={disabled} onClick={onApprove} aria-label={`Approve ${subject}`}>
          <CheckIcon aria-hidden />
          Approve
        </Button>
      )}
      <Button
        size="sm"
        variant="outline"
        disabled={disabled}
        onClick={onReject}
        aria-label={`Reject ${subject}`}
      >
        <XIcon aria-hidden />
        Reject
      </Button>
    </>
  );
}
