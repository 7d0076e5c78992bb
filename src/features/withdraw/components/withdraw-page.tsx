import { useMemo } from 'react';
import type { WithdrawalSubmission } from '@domain/withdrawal.ts';
import { LimitsNotice } from '@/components/limits-notice';
import { QueryState } from '@/components/query-state';
import { useCodePrompt } from '@/components/two-factor-code-dialog';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { LIMITS_LOAD_FAILED_MESSAGE } from '@domain/limits.ts';
import { useTransactionLimits } from '@/lib/transaction-limits';
import { submitWithStepUp } from '@/lib/step-up';
import { useWalletBalance } from '@/lib/wallet-balance';
import { useCreateWithdrawRequest } from '../api/create-withdraw-request';
import {
  RECENT_WITHDRAW_REQUESTS_LIMIT,
  useRecentWithdrawRequests,
} from '../api/get-recent-withdraw-requests';
import { useSavedDestinations } from '../api/get-saved-destinations';
import { useWithdrawRealtime } from '../hooks/use-withdraw-realtime';
import { BalanceBanner } from './balance-banner';
import { RecentWithdrawRequestsTable } from './recent-withdraw-requests-table';
import { WithdrawForm } from './withdraw-form';
import type { WithdrawAllowance } from './withdraw-form-schema';
import { ErrorMessage } from '@/components/error-message';

export const WITHDRAW_LIMITS_SESSION_FLAG = 'hasSeenWithdrawLimits';

/** '/user/withdraw': available balance, the form, and the latest requests, kept live by Realtime. */
export function WithdrawPage({ userId }: { userId: string }) {
  const balance = useWalletBalance(userId);
  const limits = useTransactionLimits();
  const requests = useRecentWithdrawRequests(userId);
  const createRequest = useCreateWithdrawRequest(userId);
  const payTo = useSavedDestinations(userId);
  useWithdrawRealtime(userId);
  const { askForCode, codeDialog } = useCodePrompt(
    'Money leaves your account only after a code from your authenticator app. Your request is sent once the code is checked.',
  );

  const submitRequest = (request: WithdrawalSubmission) =>
    submitWithStepUp(() => createRequest.mutateAsync(request), askForCode);

  const allowance = useMemo<WithdrawAllowance | undefined>(
    () =>
      balance.data && limits.data ? { limits: limits.data, available: balance.data.available } : undefined,
    [balance.data, limits.data],
  );

  return (
    <div className="mx-auto grid w-full max-w-4xl gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Withdraw Funds</h1>
      {codeDialog}
      <BalanceBanner balance={balance.data} />
      {balance.isError && <ErrorMessage>Error loading data. Please try again.</ErrorMessage>}
      {limits.isError && <ErrorMessage>{LIMITS_LOAD_FAILED_MESSAGE}</ErrorMessage>}
      <Card>
        <CardHeader>
          <CardTitle>Request a withdrawal</CardTitle>
          <CardDescription>Your payment details are encrypted before they are stored.</CardDescription>
        </CardHeader>
        <CardContent>
          {allowance ? (
            <WithdrawForm allowance={allowance} payTo={payTo.data} onSubmit={submitRequest} />
          ) : (
            <div className="grid gap-5" aria-busy>
              <Skeleton className="h-16" />
              <Skeleton className="h-10" />
            </div>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Recent Withdraw Requests</CardTitle>
        </CardHeader>
        <CardContent>
          <QueryState
            query={requests}
            placeholder={
              <div className="grid gap-2" aria-busy>
                {Array.from({ length: RECENT_WITHDRAW_REQUESTS_LIMIT }, (_, index) => (
                  <Skeleton key={index} className="h-10" />
                ))}
              </div>
            }
          >
            {(loaded) => <RecentWithdrawRequestsTable requests={loaded} />}
          </QueryState>
        </CardContent>
      </Card>
      <LimitsNotice limits={limits.data} sessionFlag={WITHDRAW_LIMITS_SESSION_FLAG} />
    </div>
  );
}
