/**
 * The rules every dollar amount follows, whatever the form (buy, withdraw, limits, deposit) and whichever side
 * checks it (the browser before sending, the `withdrawals` function before encrypting). The database checks
 * them again (`private.is_usd_amount`): positive, whole cents, fits `numeric(14,2)`.
 */
export const TWO_DECIMAL_PLACES_MESSAGE = 'Amount can have at most 2 decimal places';

/** The largest value a `numeric(14,2)` column holds. */
export const largestStorableAmount = 999_999_999_999.99;

/** Whether `amount` is a whole number of cents; 10.1 (0.1 is not exact in binary) counts, 10.005 does not. */
export function hasAtMostTwoDecimalPlaces(amount: number): boolean {
  const cents = amount * 100;
  return Math.abs(cents - Math.round(cents)) < 1e-6;
}
