import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { USERS_FAILED_MESSAGE } from './admin-messages';
import { ADMIN_PAGE_SIZE, pageRange, toPage, type Page } from './paging';

export interface AdminUser {
  id: string;
  email: string;
  fullName: string;
  role: 'user' | 'admin';
  available: number;
  registrationDate: string;
}

export interface UsersQuery {
  page: number;
  /** Part of a name or e-mail address; empty lists everyone. */
  search: string;
  pageSize?: number;
}

const usersQueryKeyRoot = ['admin', 'users'] as const;
export const usersQueryKey = (query: UsersQuery) => [...usersQueryKeyRoot, query] as const;

/** Characters with a meaning in PostgREST's filter grammar (`or=(…)` lists, `*` wildcards) are dropped. */
export function searchPattern(search: string): string | undefined {
  const words = search.replace(/[,()"\\*%]/g, ' ').trim();
  return words === '' ? undefined : `*${words}*`;
}

/** Everyone with their available balance, newest first, one page at a time; optionally by name or e-mail. */
export async function getUsers({
  page,
  search,
  pageSize = ADMIN_PAGE_SIZE,
}: UsersQuery): Promise<Page<AdminUser>> {
  const [from] = pageRange(page);
  let request = supabase
    .from('users_with_balance')
    .select('id, email, full_name, role, available, registration_date', { count: 'exact' })
    .order('registration_date', { ascending: false })
    .order('id')
    .range(from, from + pageSize - 1);
  const pattern = searchPattern(search);
  if (pattern) request = request.or(`full_name.ilike.${pattern},email.ilike.${pattern}`);
  const answer = await request;
  return toPage(answer, USERS_FAILED_MESSAGE, (row) => ({
    id: row.id,
    email: row.email ?? '',
    fullName: row.full_name ?? '',
    role: row.role,
    available: Number(row.available ?? 0),
    registrationDate: row.registration_date,
  }));
}

export const usersQueryOptions = (query: UsersQuery) =>
  queryOptions({ queryKey: usersQueryKey(query), queryFn: () => getUsers(query) });

export function useUsers(query: UsersQuery) {
  // The previous page stays on screen while the next one loads, so the table does not flash empty.
  return useQuery({ ...usersQueryOptions(query), placeholderData: keepPreviousData });
}
