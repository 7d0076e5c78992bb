import { EyeIcon, EyeOffIcon, WalletIcon } from 'lucide-react';
import { useState } from 'react';
import { QueryState, type QueryView } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { company } from '@/config/company';
import { formatUsd } from '@/lib/format';
import type { WalletBalance } from '@/lib/wallet-balance';

export const HIDDEN_BALANCE = '••••••';

/** The available balance (ledger balance minus open withdraw requests), which the person can hide. */
export function BalanceCard({ balance }: { balance: QueryView<WalletBalance> }) {
  const [visible, setVisible] = useState(true);
  const ToggleIcon = visible ? EyeOffIcon : EyeIcon;

  return (
    <Card>
      <CardHeader>
        <div className="flex items-start justify-between gap-4">
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
        </div>
      </CardHeader>
      <CardContent>
        <QueryState
          query={balance}
          placeholder={<Skeleton className="h-9 w-40" />}
          errorMessage="Failed to fetch user data"
        >
          {(loaded) => (
            <div className="grid gap-1">
              <p data-testid="wallet-balance" className="text-3xl font-semibold tracking-tight tabular-nums">
                {visible ? (
                  formatUsd(loaded.available)
                ) : (
                  <>
                    <span aria-hidden>{HIDDEN_BALANCE}</span>
                    <span className="sr-only">Balance hidden</span>
                  </>
                )}
              </p>
              {/* Nothing in the wallet yet: only an admin can add funds, so the person is told whom to ask. */}
              {loaded.balance === 0 && (
                <p data-testid="add-funds-help" className="text-muted-foreground text-sm">
                  To add funds, ask support: deposits are made by an admin. E-mail{' '}
                  <a className="text-primary underline underline-offset-4" href={`mailto:${company.email}`}>
                    {company.email}
                  </a>{' '}
                  from the address you signed up with, saying the amount.
                </p>
              )}
              {/* Why the available amount is below the ledger balance, when it is. */}
              {visible && loaded.reserved > 0 && (
                <p className="text-muted-foreground text-sm tabular-nums">
                  {formatUsd(loaded.reserved)} held for open withdraw requests
                </p>
              )}
            </div>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
