import { SnowflakeIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { QueryState } from '@/components/query-state';
import { useCodePrompt } from '@/components/two-factor-code-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { PasswordInput } from '@/components/ui/password-input';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';
import { submitWithStepUp } from '@/lib/step-up';
import {
  useAskToUnfreeze,
  useFreezeMyAccount,
  useFreezeState,
  useSetUnfreezeDelay,
  type FreezeState,
} from '../api/freeze';

/** The delays a person may choose for an unfreeze: 24 hours (the default) to 30 days. */
const delayChoices = [24, 48, 72, 168, 336, 720];
const delayLabel = (hours: number) => (hours === 24 ? '24 hours' : `${hours / 24} days`);

function UnfreezeForm({ state }: { state: FreezeState }) {
  const [password, setPassword] = useState('');
  const askToUnfreeze = useAskToUnfreeze();
  const { askForCode, codeDialog } = useCodePrompt(
    'Unfreezing needs a code from your authenticator app as well.',
  );
  if (state.unfreezeAt) {
    return (
      <p className="text-sm" data-testid="freeze-state">
        Unfreezing: your account stays frozen until {formatDateTime(state.unfreezeAt)}. Not you? Freeze it
        again.
      </p>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await submitWithStepUp(() => askToUnfreeze.mutateAsync(password), askForCode);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Your account could not be unfrozen');
      return;
    }
    setPassword('');
    toast.success(`Your account unfreezes in ${delayLabel(state.delayHours)}. We e-mailed you.`);
  };
  return (
    <form onSubmit={submit} className="grid gap-3" aria-label="Unfreeze">
      {codeDialog}
      <p className="text-sm" data-testid="freeze-state">
        Your account is frozen: no money leaves and no security setting changes.
      </p>
      <FormField label="Password">
        {(control) => (
          <PasswordInput
            {...control}
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </FormField>
      <Button type="submit" disabled={askToUnfreeze.isPending || password === ''}>
        Unfreeze after {delayLabel(state.delayHours)}
      </Button>
    </form>
  );
}

function DelayChoice({ state }: { state: FreezeState }) {
  const setDelay = useSetUnfreezeDelay();
  const { askForCode, codeDialog } = useCodePrompt('Security settings change only after a code.');
  return (
    <label className="grid gap-2 text-sm">
      {codeDialog}
      How long an unfreeze waits
      <NativeSelect
        value={String(state.delayHours)}
        onChange={(event) =>
          submitWithStepUp(() => setDelay.mutateAsync(Number(event.target.value)), askForCode).then(
            () => toast.success('Unfreeze delay changed'),
            (error: Error) => toast.error(error.message),
          )
        }
      >
        {delayChoices.map((hours) => (
          <option key={hours} value={hours}>
            {delayLabel(hours)}
          </option>
        ))}
      </NativeSelect>
    </label>
  );
}

/**
 * /user/account: freeze the account in one click when something looks wrong (no money leaves, no security
 * setting changes, other devices are signed out); unfreezing takes the password, a code and the chosen delay.
 */
export function FreezeCard() {
  const state = useFreezeState();
  const freeze = useFreezeMyAccount();
  const freezeNow = () =>
    freeze.mutateAsync().then(
      () => toast.success('Account frozen. Your other devices were signed out.'),
      (error: Error) => toast.error(error.message),
    );
  return (
    <Card className="w-full max-w-md">
      <CardHeader>
        <h2 className="text-xl font-semibold tracking-tight">Freeze your account</h2>
        <CardDescription>
          If you think someone else has your password, freeze your account: no money leaves, no security
          setting changes and your other devices are signed out. Unfreezing asks for your password and a code,
          then waits the delay you choose here.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <QueryState
          query={state}
          placeholder={<Skeleton className="h-16 w-full" />}
          errorMessage="Failed to load your freeze"
        >
          {(loaded) => (
            <>
              {loaded.frozen ? <UnfreezeForm state={loaded} /> : <DelayChoice state={loaded} />}
              {(!loaded.frozen || loaded.unfreezeAt) && (
                <Button variant="destructive" onClick={() => void freezeNow()} disabled={freeze.isPending}>
                  <SnowflakeIcon aria-hidden />
                  Freeze my account
                </Button>
              )}
            </>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
