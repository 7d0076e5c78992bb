import { toast } from 'sonner';
import { withdrawMethodLabels, type PayoutDestination } from '@domain/withdrawal.ts';
import { QueryState } from '@/components/query-state';
import { useCodePrompt } from '@/components/two-factor-code-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';
import { submitWithStepUp } from '@/lib/step-up';
import {
  useAddressBook,
  useRemoveDestination,
  useSaveDestination,
  useSetAllowlist,
  useSetWaitHours,
  type AddressBook,
  type SavedDestination,
} from '../api/address-book';
import { DestinationForm } from './destination-form';

export const ADDRESS_BOOK_LOAD_FAILED_MESSAGE = 'Failed to load your address book';

/** The waits a person may choose: 48 hours at least (what a new destination waits by default), 30 days at most. */
const waitChoices = [48, 72, 168, 336, 720];
const waitLabel = (hours: number) => (hours % 24 === 0 ? `${hours / 24} days` : `${hours} hours`);

function DestinationItem({ destination, onRemove }: { destination: SavedDestination; onRemove: () => void }) {
  return (
    <li className="flex items-center justify-between gap-3 py-3" data-testid="saved-destination">
      <div className="grid min-w-0 gap-0.5">
        <p className="font-medium">
          {destination.label}{' '}
          <span className="text-muted-foreground font-normal">
            · {withdrawMethodLabels[destination.method]} ending in {destination.last4}
          </span>
        </p>
        <p className="text-muted-foreground text-sm">
          {destination.usable ? 'Usable' : `Waiting: usable from ${formatDateTime(destination.usableAt)}`}
        </p>
      </div>
      <Button variant="outline" size="sm" onClick={onRemove}>
        Remove
      </Button>
    </li>
  );
}

function AllowlistControls({ book }: { book: AddressBook }) {
  const setAllowlist = useSetAllowlist();
  const setWaitHours = useSetWaitHours();
  const change = (run: () => Promise<void>, done: string) =>
    run().then(
      () => toast.success(done),
      (error: Error) => toast.error(error.message),
    );
  const switchingOff = book.allowlistOn && book.allowlistOffAt !== null;
  return (
    <div className="grid gap-3 border-t pt-4">
      <p className="text-sm" data-testid="allowlist-state">
        {!book.allowlistOn
          ? 'Allowlist off: withdrawals may also go to details typed in the form.'
          : switchingOff
            ? `Allowlist switching off at ${formatDateTime(book.allowlistOffAt ?? '')}: until then, withdrawals go only to usable saved destinations.`
            : 'Allowlist on: withdrawals go only to saved destinations whose waiting period has ended.'}
      </p>
      <div className="flex flex-wrap gap-2">
        {!book.allowlistOn || switchingOff ? (
          <Button
            variant="outline"
            onClick={() => change(() => setAllowlist.mutateAsync(true), 'Allowlist on')}
          >
            Switch the allowlist on
          </Button>
        ) : (
          <Button
            variant="outline"
            onClick={() =>
              change(
                () => setAllowlist.mutateAsync(false),
                'The allowlist switches off in 48 hours; we e-mailed you',
              )
            }
          >
            Switch the allowlist off (takes 48 hours)
          </Button>
        )}
      </div>
      <label className="grid gap-2 text-sm">
        Waiting period for new destinations
        <NativeSelect
          value={String(book.waitHours)}
          onChange={(event) =>
            change(() => setWaitHours.mutateAsync(Number(event.target.value)), 'Waiting period changed')
          }
        >
          {waitChoices.map((hours) => (
            <option key={hours} value={hours}>
              {waitLabel(hours)}
            </option>
          ))}
        </NativeSelect>
      </label>
    </div>
  );
}

/**
 * /user/account: the payout address book. Saved bank accounts, cards and crypto wallets, each usable after a
 * waiting period announced by e-mail with a cancel link, and the allowlist that keeps money going only there.
 */
export function AddressBookCard() {
  const book = useAddressBook();
  const save = useSaveDestination();
  const remove = useRemoveDestination();
  const { askForCode, codeDialog } = useCodePrompt(
    'Your address book changes only after a code from your authenticator app.',
  );

  const saveDestination = async (destination: PayoutDestination) => {
    try {
      await submitWithStepUp(() => save.mutateAsync(destination), askForCode);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The destination could not be saved');
      return false;
    }
    toast.success(
      'Destination saved. It becomes usable after its waiting period; we e-mailed you a cancel link.',
    );
    return true;
  };
  const removeDestination = (id: string) =>
    submitWithStepUp(() => remove.mutateAsync(id), askForCode).then(
      () => toast.success('Destination removed'),
      (error: Error) => toast.error(error.message),
    );

  return (
    <Card className="w-full max-w-2xl">
      {codeDialog}
      <CardHeader>
        <h2 className="text-xl font-semibold tracking-tight">Payout address book</h2>
        <CardDescription>
          Save the bank accounts, cards and crypto wallets you withdraw to. A new one becomes usable only
          after a waiting period, and we e-mail you a link to cancel it, so someone who learns your password
          cannot send your money to an account of their own.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <QueryState
          query={book}
          placeholder={<Skeleton className="h-24 w-full" />}
          errorMessage={ADDRESS_BOOK_LOAD_FAILED_MESSAGE}
        >
          {(loaded) => (
            <>
              {loaded.destinations.length === 0 ? (
                <p className="text-muted-foreground text-sm">No saved destinations yet.</p>
              ) : (
                <ul aria-label="Saved destinations" className="divide-y">
                  {loaded.destinations.map((destination) => (
                    <DestinationItem
                      key={destination.id}
                      destination={destination}
                      onRemove={() => void removeDestination(destination.id)}
                    />
                  ))}
                </ul>
              )}
              <DestinationForm onSave={saveDestination} />
              <AllowlistControls book={loaded} />
            </>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
