import type { WithdrawMethod } from '@domain/withdrawal.ts';

/** A withdraw request as the user's recent list shows it (never its encrypted details). */
export interface WithdrawRequest {
  id: string;
  amount: number;
  withdrawMethod: WithdrawMethod;
  status: string;
  date: string;
  /** Why the admin rejected it. */
  rejectionReason: string | null;
}
