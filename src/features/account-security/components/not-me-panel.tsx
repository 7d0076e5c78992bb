import { LockIcon } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { useReportNotMe } from '../api/report-not-me';
import { ErrorMessage } from '@/components/error-message';
import { INVALID_NOT_ME_LINK_MESSAGE } from '../api/account-security-messages';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Where a security e-mail's "this wasn't me" link lands. The lock waits for a click: mail scanners open
 * links on their own, and must not lock anyone.
 */
export function NotMePanel({ token }: { token: string | null }) {
  const reportNotMe = useReportNotMe();
  const validToken = token !== null && uuidPattern.test(token);
  const failure = validToken ? reportNotMe.error?.message : INVALID_NOT_ME_LINK_MESSAGE;

  return (
    <Card className="mx-auto w-full max-w-md">
      <CardHeader>
        <h1 className="text-2xl font-semibold tracking-tight">
          {reportNotMe.isSuccess ? 'Withdrawals locked' : 'Was this not you?'}
        </h1>
        <CardDescription>
          {reportNotMe.isSuccess
            ? 'No money can leave your account until support unlocks it. Now choose a new password, then contact support.'
            : 'Lock your withdrawals at once: nothing leaves your account until support has checked it with you.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {failure && <ErrorMessage>{failure}</ErrorMessage>}
        {reportNotMe.isSuccess ? (
          <Link to="/reset-password" className={buttonVariants({ className: 'w-full' })}>
            Choose a new password
          </Link>
        ) : (
          <Button
            variant="destructive"
            disabled={!validToken || reportNotMe.isPending}
            onClick={() => token && reportNotMe.mutate(token)}
          >
            <LockIcon aria-hidden />
            {reportNotMe.isPending ? 'Locking…' : 'Lock my withdrawals'}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
