import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { startOfDay } from '@/lib/calendar-day';
import { queryClient } from '@/lib/query-client';
import type { ListFilterName, ListState } from './list-state';
import { readAllRows, readPage, type ListRead } from './paging';

/** The part of a supabase-js read that a list's state adds to: filters, `or` groups and order. */
export interface FilterableRequest<Self> {
  filter(column: string, operator: string, value: unknown): Self;
  or(filters: string): Self;
  order(column: string, options?: { ascending?: boolean }): Self;
}

/** Where a list's view keeps what its filters and search look at. */
export interface ListColumns {
  /** The timestamp the date range applies to. */
  date: string;
  /** Text columns the search looks in (case-insensitive, anywhere in the text). */
  search: readonly string[];
}

/** The view column each filter compares with; `from`/`to` use the list's date column. */
const filterColumns: Record<Exclude<ListFilterName, 'from' | 'to'>, string> = {
  status: 'status',
  type: 'type',
  method: 'withdraw_method',
  user: 'user_id',
};

/** Characters with a meaning in PostgREST's filter grammar (`or=(…)` lists, `*` wildcards) are dropped. */
export function searchPattern(search: string): string | undefined {
  const words = search.replace(/[,()"\\*%]/g, ' ').trim();
  return words === '' ? undefined : `*${words}*`;
}

/**
 * The list's search, filters and sort as PostgREST query parameters, so the server (and row-level
 * security) decides which rows match; `id` last keeps pages stable when sorted values repeat.
 */
export function applyListState<Request extends FilterableRequest<Request>>(
  request: Request,
  { search, filters, sort }: ListState,
  columns: ListColumns,
): Request {
  let filtered = request;
  for (const [name, column] of Object.entries(filterColumns) as [keyof typeof filterColumns, string][]) {
    const value = filters[name];
    if (value) filtered = filtered.filter(column, 'eq', value);
  }
  // Days are the viewer's own: from the start of `from` to the end of `to`.
  if (filters.from) filtered = filtered.filter(columns.date, 'gte', startOfDay(filters.from));
  if (filters.to) filtered = filtered.filter(columns.date, 'lt', startOfDay(filters.to, 1));
  const pattern = searchPattern(search);
  if (pattern && columns.search.length > 0) {
    filtered = filtered.or(columns.search.map((column) => `${column}.ilike.${pattern}`).join(','));
  }
  return filtered.order(sort.column, { ascending: sort.ascending }).order('id', { ascending: true });
}

/**
 * A server-paginated admin list's reads and query: one page (`getPage`, `useList`, which keeps the previous
 * page on screen while the next loads, `prefetch`) and every matching row (`getAll`, for the CSV export).
 */
export function adminListQueries<Row, Item>({
  keyRoot,
  read,
  toItem,
  failedMessage,
}: {
  keyRoot: readonly string[];
  read: (state: ListState) => ListRead<Row>;
  toItem: (row: Row) => Item;
  failedMessage: string;
}) {
  const getPage = (state: ListState, pageSize?: number) =>
    readPage(read(state), state.page, failedMessage, toItem, pageSize);
  const listQueryOptions = (state: ListState, pageSize?: number) =>
    queryOptions({ queryKey: [...keyRoot, state, pageSize], queryFn: () => getPage(state, pageSize) });
  return {
    getPage,
    prefetch: (state: ListState) => queryClient.prefetchQuery(listQueryOptions(state)),
    getAll: (state: ListState) => readAllRows(read(state), failedMessage, toItem),
    queryOptions: listQueryOptions,
    useList: (state: ListState, pageSize?: number) =>
      useQuery({ ...listQueryOptions(state, pageSize), placeholderData: keepPreviousData }),
  };
}

/** A view row's person and money columns, as every request and transaction list has them. */
export interface PersonAmountRow {
  id: string;
  user_id: string;
  full_name: string | null;
  email: string | null;
  amount: number;
  available: number | null;
  date: string;
}

/** The fields every request and transaction item shares, from its view row. */
export function personAmountFields(row: PersonAmountRow) {
  return {
    id: row.id,
    userId: row.user_id,
    userName: row.full_name ?? '',
    email: row.email ?? '',
    amount: Number(row.amount),
    available: Number(row.available ?? 0),
    date: row.date,
  };
}
