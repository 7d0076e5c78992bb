import { RestrictionsNotice } from '@/components/restrictions-notice';
import { StalePricesNote } from '@/components/stale-prices-note';
import { useMemo } from 'react';
import { ShowOlderButton } from '@/components/show-older-button';
import { LimitsNotice } from '@/components/limits-notice';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useCodePrompt } from '@/components/two-factor-code-dialog';
import { useSession } from '@/lib/auth';
import { submitWithStepUp } from '@/lib/step-up';
import { formatUsd } from '@/lib/format';
import { useMarketCoins } from '@/lib/market-feed';
import { useTransactionLimits } from '@/lib/transaction-limits';
import { useWalletBalance } from '@/lib/wallet-balance';
import { LIMITS_LOAD_FAILED_MESSAGE } from '@domain/limits.ts';
import { MARKET_FAILED_MESSAGE } from '../api/buy-messages';
import { useCreateBuyRequest } from '../api/create-buy-request';
import { useBuyRequests } from '../api/get-buy-requests';
import { useBuyRequestsRealtime } from '../hooks/use-buy-requests-realtime';
import { BuyForm } from './buy-form';
import { BuyRequestsTable } from './buy-requests-table';
import type { BuyOrder } from '../types';
import { coinNamesOf, coinPricesOf } from '@domain/coins.ts';
import { ErrorMessage } from '@/components/error-message';

/** The session flag of the buy page's limits notice (specification §9). */
export const BUY_LIMITS_NOTICE_FLAG = 'hasSeenBuyLimits';

const NO_LIMITS = { minAmount: 0, maxAmount: 0 };

/**
 * Form beside the list on wide screens, stacked on small ones. `minmax(0, …)` columns let the list
 * scroll inside its card instead of pushing the page wider than the screen.
 */
const pageColumns = 'grid grid-cols-1 items-start gap-6 lg:grid-cols-[22rem_minmax(0,1fr)]';

function BuyCryptoSkeleton() {
  return (
    <div className={pageColumns} aria-busy="true">
      <span className="sr-only">Loading…</span>
      <Card>
        <CardContent className="grid gap-5 pt-6">
          {[0, 1].map((field) => (
            <div key={field} className="grid gap-2">
              <Skeleton className="h-4 w-28" />
              <Skeleton className="h-10 w-full" />
            </div>
          ))}
          <Skeleton className="h-11 w-full" />
          <Skeleton className="h-10 w-full" />
        </CardContent>
      </Card>
      <Card>
        <CardContent className="grid gap-3 pt-6">
          {Array.from({ length: 5 }, (_, row) => (
            <Skeleton key={row} className="h-9 w-full" />
          ))}
        </CardContent>
      </Card>
    </div>
  );
}

function BuyCryptoContent() {
  const { user } = useSession();
  const market = useMarketCoins();
  const limits = useTransactionLimits();
  const requests = useBuyRequests(user?.id);
  const balance = useWalletBalance(user?.id);
  const { mutateAsync: sendBuyRequest } = useCreateBuyRequest(user?.id);
  const { askForCode, codeDialog } = useCodePrompt(
    'Coins are bought only after a code from your authenticator app. Your request is sent once the code is checked.',
  );
  const submitBuyRequest = (order: BuyOrder) => submitWithStepUp(() => sendBuyRequest(order), askForCode);
  useBuyRequestsRealtime(user?.id);

  const coins = market.data?.coins;
  const coinNames = useMemo(() => coinNamesOf(coins), [coins]);
  const prices = useMemo(() => coinPricesOf(coins), [coins]);

  if (!market.data || limits.isPending) return <BuyCryptoSkeleton />;
  // The built-in sample suits a price list, not a purchase: an estimate from made-up prices would
  // mislead, so here a failed feed is the page's load failure, with Retry (specification, /user/buy).
  if (market.data.source === 'sample') {
    return (
      <div className="grid justify-items-start gap-3">
        <ErrorMessage>{MARKET_FAILED_MESSAGE}</ErrorMessage>
        <Button variant="outline" onClick={() => window.location.reload()}>
          Retry
        </Button>
      </div>
    );
  }

  return (
    <div className={pageColumns}>
      {codeDialog}
      {user && <RestrictionsNotice userId={user.id} movements={['buy']} className="lg:col-span-2" />}
      <LimitsNotice limits={limits.data} sessionFlag={BUY_LIMITS_NOTICE_FLAG} />
      <Card>
        <CardHeader>
          <CardTitle>New buy request</CardTitle>
          <CardDescription>
            Available balance:{' '}
            <span className="text-foreground font-medium tabular-nums" data-testid="available-balance">
              {balance.data ? formatUsd(balance.data.available) : '…'}
            </span>
          </CardDescription>
          {limits.isError && <ErrorMessage>{LIMITS_LOAD_FAILED_MESSAGE}</ErrorMessage>}
          <StalePricesNote snapshot={market.data} />
        </CardHeader>
        <CardContent>
          <BuyForm
            coins={market.data.coins}
            limits={limits.data ?? NO_LIMITS}
            available={balance.data?.available}
            isSignedIn={Boolean(user)}
            onSubmit={submitBuyRequest}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Your Buy Requests</CardTitle>
        </CardHeader>
        <CardContent>
          {requests.isError ? (
            <ErrorMessage>{requests.error.message}</ErrorMessage>
          ) : requests.isPending ? (
            <Skeleton className="h-40 w-full" />
          ) : (
            <>
              <BuyRequestsTable
                requests={requests.data}
                coinNames={coinNames}
                prices={prices}
                userId={user?.id}
              />
              <ShowOlderButton
                label="Show older requests"
                hasMore={requests.hasNextPage}
                isLoading={requests.isFetchingNextPage}
                onShowOlder={() => void requests.fetchNextPage()}
              />
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** '/user/buy': the buy form with its estimate, the limits notice and the live list of requests. */
export function BuyCrypto() {
  return (
    <section className="grid grid-cols-1 gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Buy Cryptocurrency</h1>
      <BuyCryptoContent />
    </section>
  );
}
