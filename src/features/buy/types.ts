import type { Tables } from '@/types/database';

/** A buy request as the user's list shows it (the columns the app selects from `buy_requests`). */
export type BuyRequest = Pick<Tables<'buy_requests'>, 'id' | 'cryptocurrency' | 'amount' | 'status' | 'date'>;

/** What the buy form hands over once every rule passes: a coin id and an amount in USD. */
export interface BuyOrder {
  cryptocurrency: string;
  amount: number;
}
