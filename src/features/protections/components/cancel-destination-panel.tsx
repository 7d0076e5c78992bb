import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { ErrorMessage } from '@/components/error-message';
import { INVALID_CANCEL_LINK_MESSAGE, useCancelDestination } from '../api/cancel-destination';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Where a new destination's cancel link lands. Cancelling waits for a click: mail scanners open links on their
 * own, and must not remove anyone's destination.
 */
export function CancelDestinationPanel({ token }: { token: string | null }) {
  const cancel = useCancelDestination();
  const validToken = token !== null && uuidPattern.test(token);
  const failure = validToken ? cancel.error?.message : INVALID_CANCEL_LINK_MESSAGE;
  return (
    <Card className="mx-auto w-full max-w-md">
      <CardHeader>
        <h1 className="text-2xl font-semibold tracking-tight">
          {cancel.isSuccess ? 'Destination cancelled' : 'Cancel a new payout destination?'}
        </h1>
        <CardDescription>
          {cancel.isSuccess
            ? `"${cancel.data}" was removed from your address book: no money can go there. If you did not add it, change your password.`
            : 'If you did not add this destination, cancel it now: no money will go there.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {failure && <ErrorMessage>{failure}</ErrorMessage>}
        {!cancel.isSuccess && (
          <Button
            variant="destructive"
            disabled={!validToken || cancel.isPending}
            onClick={() => token && cancel.mutate(token)}
          >
            {cancel.isPending ? 'Cancelling…' : 'Cancel this destination'}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
