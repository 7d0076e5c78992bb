/** One row of the user's own ledger as the wallet shows it. */
export interface WalletTransaction {
  id: string;
  type: 'deposit' | 'sell' | 'withdraw' | 'buy';
  /** US dollars. */
  amount: number;
  status: string;
  /** ISO timestamp. */
  date: string;
  /** The coin bought, for buys. */
  cryptocurrency: string | null;
}
