import { EyeIcon, EyeOffIcon, WalletIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatUsd } from '@/lib/format';
import { LoadError } from './load-error';

export const HIDDEN_BALANCE = '••••••';

/** The available balance (ledger balance minus open withdraw requests), which the person can hide. */
export function BalanceCard({
  available,
  isLoading,
  isError,
}: {
  available: number | undefined;
  isLoading: boolean;
  isError: boolean;
}) {
  const [visible, setVisible] = useState(true);
  const ToggleIcon = visible ? EyeOffIcon : EyeIcon;

  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4 space-y-0">
        <div className="grid gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <WalletIcon className="text-primary size-4" aria-hidden />
            Balance
          </CardTitle>
          <CardDescription>Available to buy or withdraw</CardDescription>
        </div>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          aria-label={visible ? 'Hide balance' : 'Show balance'}
          onClick={() => setVisible((shown) => !shown)}
        >
          <ToggleIcon aria-hidden />
        </Button>
      </CardHeader>
      <CardContent>
        {isError ? (
          <LoadError message="Failed to fetch user data" />
        ) : isLoading || available === undefined ? (
          <Skeleton className="h-9 w-40" />
        ) : (
          <p data-testid="wallet-balance" className="text-3xl font-semibold tracking-tight tabular-nums">
            {visible ? formatUsd(available) : <span aria-label="Balance hidden">{HIDDEN_BALANCE}</span>}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
