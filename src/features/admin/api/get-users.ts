import { supabase } from '@/lib/supabase';
import { USERS_FAILED_MESSAGE } from './admin-messages';
import { adminList } from './list-query';

export interface AdminUser {
  id: string;
  email: string;
  fullName: string;
  role: 'user' | 'admin';
  available: number;
  registrationDate: string;
  /** Until when withdrawals are held after a security change; null without a hold. */
  holdUntil: string | null;
  /** A security e-mail's "this wasn't me" link locked the person's withdrawals. */
  withdrawalsLocked: boolean;
  frozen: boolean;
  twoFactor: boolean;
}

/**
 * Everyone with their role, available balance and what restricts them (hold, lock, freeze) or protects them
 * (two-factor authentication), searched by name or e-mail.
 */
export const users = adminList({
  keyRoot: ['admin', 'users'],
  definition: {
    sortColumns: ['full_name', 'email', 'role', 'registration_date'],
    defaultSort: { column: 'registration_date', ascending: false },
    filters: {},
  },
  select: (head) =>
    supabase
      .from('users_with_balance')
      .select(
        'id, email, full_name, role, available, registration_date, hold_until, withdrawals_locked, frozen, two_factor',
        { count: 'exact', head },
      ),
  columns: { date: 'registration_date', search: ['full_name', 'email'] },
  toItem: (row): AdminUser => ({
    id: row.id,
    email: row.email ?? '',
    fullName: row.full_name ?? '',
    role: row.role,
    available: Number(row.available ?? 0),
    registrationDate: row.registration_date,
    holdUntil: row.hold_until,
    withdrawalsLocked: row.withdrawals_locked ?? false,
    frozen: row.frozen ?? false,
    twoFactor: row.two_factor ?? false,
  }),
  failedMessage: USERS_FAILED_MESSAGE,
});
