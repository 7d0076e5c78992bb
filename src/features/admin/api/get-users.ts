import { supabase } from '@/lib/supabase';
import { USERS_FAILED_MESSAGE } from './admin-messages';
import { adminListQueries, applyListState } from './list-query';
import type { ListDefinition, ListState } from './list-state';

export interface AdminUser {
  id: string;
  email: string;
  fullName: string;
  role: 'user' | 'admin';
  available: number;
  registrationDate: string;
}

export const usersList: ListDefinition = {
  sortColumns: ['full_name', 'email', 'role', 'registration_date'],
  defaultSort: { column: 'registration_date', ascending: false },
  filters: {},
};

const usersQueryKeyRoot = ['admin', 'users'] as const;

const read = (state: ListState) => (head: boolean) =>
  applyListState(
    supabase
      .from('users_with_balance')
      .select('id, email, full_name, role, available, registration_date', { count: 'exact', head }),
    state,
    { date: 'registration_date', search: ['full_name', 'email'] },
  );

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof read>>>['data']>[number];

const toUser = (row: Row): AdminUser => ({
  id: row.id,
  email: row.email ?? '',
  fullName: row.full_name ?? '',
  role: row.role,
  available: Number(row.available ?? 0),
  registrationDate: row.registration_date,
});

export const usersQueries = adminListQueries({
  keyRoot: usersQueryKeyRoot,
  read,
  toItem: toUser,
  failedMessage: USERS_FAILED_MESSAGE,
});
