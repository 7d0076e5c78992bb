import { Skeleton } from '@/components/ui/skeleton';
import { formatUsd } from '@/lib/format';
import type { WalletBalance } from '@/lib/wallet-balance';

/** The available balance: what may be withdrawn now, after the amounts held by open requests. */
export function BalanceBanner({ balance }: { balance: WalletBalance | undefined }) {
  return (
    <section
      aria-labelledby="available-balance-label"
      className="bg-primary text-primary-foreground flex flex-wrap items-end justify-between gap-4 rounded-xl p-6 shadow-sm"
    >
      <div className="grid gap-1">
        <h2 id="available-balance-label" className="text-sm font-medium">
          Available balance
        </h2>
        {balance ? (
          <p className="text-3xl font-semibold tabular-nums" data-testid="available-balance">
            {formatUsd(balance.available)}
          </p>
        ) : (
          <Skeleton tone="onPrimary" className="h-9 w-40" />
        )}
      </div>
      {balance && balance.reserved > 0 && (
        <p className="text-sm tabular-nums">{formatUsd(balance.reserved)} held by open withdraw requests</p>
      )}
    </section>
  );
}
