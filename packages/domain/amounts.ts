/**
 * The rule every dollar amount a person types follows, whatever the form (buy, withdraw, limits, deposit):
 * the database keeps whole cents, so a third decimal is refused with this message (the same words as the
 * withdrawal function's schema) before anything is sent.
 */
export const twoDecimalPlacesMessage = 'Amount can have at most 2 decimal places';

/** Whether `amount` is a whole number of cents; 10.1 (0.1 is not exact in binary) counts, 10.005 does not. */
export function hasAtMostTwoDecimalPlaces(amount: number): boolean {
  const cents = amount * 100;
  return Math.abs(cents - Math.round(cents)) < 1e-6;
}
