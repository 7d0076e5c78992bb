import { formatUsd } from '@/lib/format';

/** What a cell shows for a price or an expiry that does not apply. */
export const NONE = '—';

/** A price in USD, or a dash when there is none. */
export const usdOrDash = (value: number | undefined) => (value === undefined ? NONE : formatUsd(value));

/** A limit price for the confirmation's details: the price in USD, or 'No limit'. */
export function limitText(limitPrice: number | undefined): string {
  return limitPrice === undefined ? 'No limit' : formatUsd(limitPrice);
}
