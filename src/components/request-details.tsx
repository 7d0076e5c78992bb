import { isExpired } from '@domain/price-protection.ts';
import { formatDateTime, formatUsd } from '@/lib/format';

export interface RequestFill {
  /** USD per coin the approval filled at. */
  price: number;
  /** What the person got, written out: '0.1 BTC' for a buy, 'US$9.50' for a sale. */
  received: string;
}

/**
 * Under a request's status, what an order is: its limit and expiry while open, the price it filled at and what
 * it brought once approved, the admin's reason once rejected.
 */
export function RequestDetails({
  status,
  expiresAt,
  limitPrice,
  fill,
  rejectionReason,
}: {
  status: string;
  /** Buy and sell requests expire; withdrawals do not. */
  expiresAt?: string;
  limitPrice?: number | null;
  fill?: RequestFill | null;
  rejectionReason?: string | null;
}) {
  const lines: string[] = [];
  if (status === 'pending' && limitPrice !== undefined) {
    lines.push(limitPrice === null ? 'No limit' : `Limit ${formatUsd(limitPrice)}`);
  }
  if (status === 'pending' && expiresAt) {
    lines.push(`${isExpired(status, expiresAt) ? 'Expired' : 'Expires'} ${formatDateTime(expiresAt)}`);
  }
  if (status === 'approved' && fill) {
    lines.push(`Filled at ${formatUsd(fill.price)} · ${fill.received}`);
  }
  if (status === 'rejected' && rejectionReason) lines.push(`Reason: ${rejectionReason}`);
  if (lines.length === 0) return null;
  return (
    <p className="text-muted-foreground mt-1 grid text-xs break-words" data-testid="request-details">
      {lines.map((line) => (
        <span key={line}>{line}</span>
      ))}
    </p>
  );
}
