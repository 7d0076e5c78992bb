import type pg from 'pg';
import { createApprovalWorkload, type ApprovalWorkload } from '../../tests/support/buy-approval-workload';

/** The approval benches' queue: admins approving at once, people, and pending buy requests per person. */
export const ADMINS = 8;
export const USERS = 200;
export const REQUESTS_PER_USER = 10;

/** Each person's 10 requests of 60 to 150 USD (1,050 in all), the deposit exactly what they hold back: all approvable. */
export function createApprovableQueue(pool: pg.Pool, label: string): Promise<ApprovalWorkload> {
  return createApprovalWorkload(pool, {
    admins: ADMINS,
    users: USERS,
    requestsPerUser: REQUESTS_PER_USER,
    deposit: 1050,
    requestAmount: (index) => 60 + index * 10,
    label,
  });
}
