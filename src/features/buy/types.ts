import type { RequestLifetime } from '@domain/price-protection.ts';
import type { Tables } from '@/types/database';

/** A buy request as the user's list shows it (the columns the app selects from `buy_requests_with_fill`). */
export type BuyRequest = Pick<
  Tables<'buy_requests'>,
  'id' | 'cryptocurrency' | 'amount' | 'status' | 'date' | 'expires_at' | 'limit_price' | 'rejection_reason'
> & {
  /** USD per coin the approval filled at; null until approved. */
  fill_price: number | null;
  /** Coins received, as exact decimal text; null until approved. */
  quantity: string | null;
};

/**
 * What the buy form hands over once every rule passes: a coin id, an amount in USD and the most USD per coin
 * the person accepts (the price shown plus their tolerance).
 */
export interface BuyOrder {
  cryptocurrency: string;
  amount: number;
  /** None when no price was shown (the request then carries no limit). */
  limitPrice: number | undefined;
  /** How long it may wait for an admin, as the person picked. */
  lifetime: RequestLifetime;
}

/** A buy order as sent: its expiry (ISO 8601) fixed when it first went, and sent again with its key. */
export interface SentBuyOrder extends BuyOrder {
  expiresAt: string;
}
