import { ClockIcon } from 'lucide-react';
import type { MarketSnapshot } from '@/lib/market';

const timeFormat = new Intl.DateTimeFormat('en-US', {
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** 'Prices as of …' under prices the market function served stale (its provider failed or was rationed). */
export function StalePricesNote({ snapshot }: { snapshot: MarketSnapshot }) {
  if (!snapshot.pricesAsOf) return null;
  return (
    <p className="text-muted-foreground flex items-center gap-2 text-xs" data-testid="stale-prices">
      <ClockIcon aria-hidden className="size-3.5 shrink-0" />
      Prices as of {timeFormat.format(snapshot.pricesAsOf)}: live prices are unavailable right now.
    </p>
  );
}
