/** A buy request as the user's list shows it (the columns the app selects from `buy_requests`). */
export interface BuyRequest {
  id: string;
  cryptocurrency: string;
  amount: number;
  status: 'pending' | 'approved' | 'rejected';
  date: string;
}

/** What the buy form hands over once every rule passes: a coin id and an amount in USD. */
export interface BuyOrder {
  cryptocurrency: string;
  amount: number;
}
