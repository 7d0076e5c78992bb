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
}

/** Everyone with their role and available balance, searched by name or e-mail. */
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
      .select('id, email, full_name, role, available, registration_date', { count: 'exact', head }),
  columns: { date: 'registration_date', search: ['full_name', 'email'] },
  toItem: (row): AdminUser => ({
    id: row.id,
    email: row.email ?? '',
    fullName: row.full_name ?? '',
    role: row.role,
    available: Number(row.available ?? 0),
    registrationDate: row.registration_date,
  }),
  failedMessage: USERS_FAILED_MESSAGE,
});
