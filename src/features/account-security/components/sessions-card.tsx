import { MonitorSmartphoneIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate, formatTime } from '@/lib/format';
import type { SignedInSession } from '../api/list-my-sessions';
import { useSignOutOtherSessions } from '../api/sign-out-other-sessions';
import { useLiveSessions } from '../hooks/use-live-sessions';
import { deviceName } from '../utils/device-name';
import { QueryState } from '@/components/query-state';
import {
  SESSIONS_LOAD_FAILED_MESSAGE,
  SIGNED_OUT_OTHERS_MESSAGE,
  SIGN_OUT_OTHERS_FAILED_MESSAGE,
} from '../api/account-security-messages';

function SessionItem({ session }: { session: SignedInSession }) {
  return (
    <li className="flex items-start gap-3 py-3" data-testid="session">
      <MonitorSmartphoneIcon className="text-muted-foreground mt-0.5 size-5 shrink-0" aria-hidden />
      <div className="grid min-w-0 gap-0.5">
        <p className="font-medium">
          {deviceName(session.userAgent)}
          {session.isCurrent && (
            <span className="bg-secondary text-secondary-foreground ml-2 rounded-full px-2 py-0.5 text-xs font-medium">
              This device
            </span>
          )}
        </p>
        <p className="text-muted-foreground text-sm break-all">
          {session.ip ?? 'Unknown address'} · last active{' '}
          <time dateTime={session.lastActiveAt} className="tabular-nums">
            {formatDate(session.lastActiveAt)} {formatTime(session.lastActiveAt)}
          </time>
        </p>
      </div>
    </li>
  );
}

/** /user/account: where the person is signed in, and "Sign out everywhere else". */
export function SessionsCard() {
  const sessions = useLiveSessions();
  const signOutOthers = useSignOutOtherSessions();
  const others = sessions.data?.filter((session) => !session.isCurrent).length ?? 0;

  const signOutEverywhereElse = async () => {
    try {
      await signOutOthers.mutateAsync();
    } catch {
      toast.error(SIGN_OUT_OTHERS_FAILED_MESSAGE);
      return;
    }
    toast.success(SIGNED_OUT_OTHERS_MESSAGE);
  };

  return (
    <Card className="w-full max-w-md">
      <CardHeader>
        <h2 className="text-xl font-semibold tracking-tight">Where you are signed in</h2>
        <CardDescription>
          If you do not recognise a device, sign it out and change your password.
        </CardDescription>
      </CardHeader>
      <CardContent aria-busy={sessions.isPending}>
        <QueryState
          query={sessions}
          placeholder={
            <div className="grid gap-3" aria-hidden>
              <Skeleton className="h-12 w-full" />
              <Skeleton className="h-12 w-full" />
            </div>
          }
          errorMessage={SESSIONS_LOAD_FAILED_MESSAGE}
        >
          {(signedIn) => (
            <ul aria-label="Signed-in sessions" className="divide-y">
              {signedIn.map((session) => (
                <SessionItem key={session.id} session={session} />
              ))}
            </ul>
          )}
        </QueryState>
      </CardContent>
      <CardFooter>
        <Button
          variant="outline"
          disabled={others === 0 || signOutOthers.isPending}
          onClick={() => void signOutEverywhereElse()}
        >
          {signOutOthers.isPending ? 'Signing out…' : 'Sign out everywhere else'}
        </Button>
      </CardFooter>
    </Card>
  );
}
