/** What an admin queue shows of a request's price protection, beside the current price. */
export interface PriceProtectedRequest {
  /** USD per coin: the current price while pending (undefined without a fresh one). */
  price: number | undefined;
  /** USD per coin: the most a buy, the least a sell fills at; undefined for a request without a limit. */
  limitPrice: number | undefined;
  expiresAt: string;
  /** Pending past its expiry: it cannot be approved. */
  expired: boolean;
}

interface PriceProtectionRow {
  price: number | null;
  limit_price: number | null;
  expires_at: string;
  expired: boolean | null;
}

/** The columns every price-protected queue selects. */
export const PRICE_PROTECTION_COLUMNS = 'price, limit_price, expires_at, expired';

export const numberOrUndefined = (value: number | null) => (value === null ? undefined : Number(value));

export function priceProtectionFields(row: PriceProtectionRow): PriceProtectedRequest {
  return {
    price: numberOrUndefined(row.price),
    limitPrice: numberOrUndefined(row.limit_price),
    expiresAt: row.expires_at,
    expired: row.expired === true,
  };
}
