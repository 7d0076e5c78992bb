import { isPastLimit, type RequestSide } from '@domain/price-protection.ts';
import { formatUsd } from '@/lib/format';

/**
 * Under a pending request whose limit the current price has passed (above it for a buy, below it for a sell):
 * why an admin's approval may be refused.
 */
export function PastLimitNote({
  side,
  status,
  limitPrice,
  price,
}: {
  side: RequestSide;
  status: string;
  limitPrice: number | null;
  /** The coin's current price; none while prices are missing. */
  price: number | undefined;
}) {
  if (status !== 'pending' || limitPrice === null || price === undefined) return null;
  if (!isPastLimit(side, price, limitPrice)) return null;
  return (
    <p className="text-destructive mt-1 text-xs">
      The price is {side === 'buy' ? 'above' : 'below'} your limit of {formatUsd(limitPrice)}
    </p>
  );
}
