import type { Tables } from '@/types/database';

/** A buy request as the user's list shows it (the columns the app selects from `buy_requests`). */
export type BuyRequest = Pick<
  Tables<'buy_requests'>,
  'id' | 'cryptocurrency' | 'amount' | 'status' | 'date' | 'expires_at' | 'limit_price'
>;

/**
 * What the buy form hands over once every rule passes: a coin id, an amount in USD and the most USD per coin
 * the person accepts (the price shown plus their tolerance).
 */
export interface BuyOrder {
  cryptocurrency: string;
  amount: number;
  /** None when no price was shown (the request then carries no limit). */
  limitPrice: number | undefined;
  /** When it expires (ISO 8601), fixed at submit from the lifetime the person picked. */
  expiresAt: string;
}
