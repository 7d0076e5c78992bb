/**
 * Price protection: a buy or sell request carries a limit price, the price the person saw moved by the
 * tolerance they pick: a buy fills at most that much higher, a sell at most that much lower. The database
 * refuses an approval past the limit or after the request's expiry; these rules say the same to the screens.
 */
export const priceTolerances = [1, 2, 5] as const;
export type PriceTolerance = (typeof priceTolerances)[number];
export const defaultPriceTolerance: PriceTolerance = 2;

export type RequestSide = 'buy' | 'sell';

/**
 * How long a request may wait for an admin before it expires, as the person picks; the database takes up to
 * 30 days ahead, and the longest choice stays well inside that whatever the device's clock says.
 */
export const requestLifetimes = [
  { hours: 24, label: '24 hours' },
  { hours: 72, label: '3 days' },
  { hours: 168, label: '7 days' },
] as const;
export type RequestLifetime = (typeof requestLifetimes)[number];
export const defaultRequestLifetime: RequestLifetime = requestLifetimes[0];

/** When a request made `now` with `lifetime` expires (ISO 8601), fixed at submit so a retry sends the same. */
export function expiryAfter(lifetime: RequestLifetime, now: Date = new Date()): string {
  return new Date(now.getTime() + lifetime.hours * 60 * 60 * 1000).toISOString();
}

/**
 * The limit price (8 decimal places) for a `side` request made at `price` with `tolerance` percent; none
 * without a positive price to start from (the request then carries no limit).
 */
export function limitPriceFor(
  side: RequestSide,
  price: number | undefined,
  tolerance: PriceTolerance,
): number | undefined {
  if (price === undefined || !Number.isFinite(price) || price <= 0) return undefined;
  const factor = side === 'buy' ? 1 + tolerance / 100 : 1 - tolerance / 100;
  return Number((price * factor).toFixed(8));
}

/** Whether `price` is past a `side` request's limit: above it for a buy, below it for a sell. */
export function isPastLimit(side: RequestSide, price: number, limitPrice: number | null): boolean {
  if (limitPrice === null) return false;
  return side === 'buy' ? price > limitPrice : price < limitPrice;
}

/** A pending request past its expiry: it can no longer be approved (the database derives the same). */
export function isExpired(status: string, expiresAt: string, now: Date = new Date()): boolean {
  return status === 'pending' && new Date(expiresAt).getTime() <= now.getTime();
}

/** The status a list shows: `expired` for a pending request past its expiry, the stored status otherwise. */
export function shownStatus(status: string, expiresAt: string, now: Date = new Date()): string {
  return isExpired(status, expiresAt, now) ? 'expired' : status;
}

/**
 * The database's refusals of an approval that price protection stops (past the limit, expired): an admin
 * reads them as they are, since they name the price, the limit or the expiry.
 */
const PRICE_PROTECTION_REFUSAL =
  /^(The price of .+ now, (above|below) this request's limit of |This request expired at .+ and cannot be approved$)/;

export function isPriceProtectionRefusal(message: string): boolean {
  return PRICE_PROTECTION_REFUSAL.test(message);
}
