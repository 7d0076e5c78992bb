import { CheckIcon, XIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';

/**
 * Approve and Reject for a pending request, named after whose request it is; an expired request can only be
 * rejected (closed).
 */
export function DecisionButtons({
  subject,
  disabled,
  expired = false,
  onApprove,
  onReject,
}: {
  /** Whose request, e.g. 'Jane Doe's request of $100.00', for the buttons' accessible names. */
  subject: string;
  disabled: boolean;
  expired?: boolean;
  onApprove: () => void;
  onReject: () => void;
}) {
  return (
    <div className="flex flex-col items-stretch gap-2 sm:flex-row sm:justify-end">
      {!expired && (
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
    </div>
  );
}
