import { keepPreviousData, queryOptions, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { startOfDay } from '@/lib/calendar-day';
import { queryClient } from '@/lib/query-client';
import type { ListDefinition, ListFilterName, ListState } from './list-state';
import { readAllRows, readPage, type ListAnswer, type ListRead, type Page } from './paging';

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

/** A supabase-js read of a list's view, as `select(…, { count: 'exact', head })` returns it. */
export type ListRequest<Request> = FilterableRequest<Request> & ReturnType<ListRead<unknown>>;

/** The row type a list's read answers with. */
export type RowOf<Request> = Request extends PromiseLike<ListAnswer<infer Row>> ? Row : never;

/** Where the person lists (requests, transactions) keep their date and the text a search looks in. */
export const PERSON_LIST_COLUMNS: ListColumns = { date: 'date', search: ['full_name', 'email'] };

/** An admin list's reads and query (see `adminList`). */
export interface AdminList<Item> {
  /** Prefixes every query key of the list: invalidating it refreshes every loaded page. */
  keyRoot: readonly string[];
  /** What the list may be sorted and filtered by. */
  definition: ListDefinition;
  /** Starts reading a page before the screen asks for it. */
  prefetch: (state: ListState) => Promise<void>;
  /** Every matching row in the list's order, for the CSV export. */
  getAll: (state: ListState) => Promise<Item[]>;
  /** One page, the previous one kept on screen while the next loads. */
  useList: (state: ListState, pageSize?: number) => UseQueryResult<Page<Item>>;
}

/**
 * An admin list's fetcher, configured per kind by its view's read, its columns and its rows' mapping: one
 * page (`useList`, `prefetch`) and every matching row (`getAll`, for the CSV export).
 */
export function adminList<Request extends ListRequest<Request>, Item>({
  keyRoot,
  definition,
  select,
  columns = PERSON_LIST_COLUMNS,
  toItem,
  failedMessage,
}: {
  keyRoot: readonly string[];
  definition: ListDefinition;
  /** The view's read: `supabase.from(view).select(columns, { count: 'exact', head })`. */
  select: (head: boolean) => Request;
  columns?: ListColumns;
  toItem: (row: RowOf<Request>) => Item;
  failedMessage: string;
}): AdminList<Item> {
  const read =
    (state: ListState): ListRead<RowOf<Request>> =>
    (head) =>
      // The request's answer is what RowOf reads off it; TypeScript does not relate the two for a generic.
      applyListState(select(head), state, columns) as ReturnType<ListRead<RowOf<Request>>>;
  const getPage = (state: ListState, pageSize?: number) =>
    readPage(read(state), state.page, failedMessage, toItem, pageSize);
  const listQueryOptions = (state: ListState, pageSize?: number) =>
    queryOptions({ queryKey: [...keyRoot, state, pageSize], queryFn: () => getPage(state, pageSize) });
  return {
    keyRoot,
    definition,
    prefetch: (state) => queryClient.prefetchQuery(listQueryOptions(state)),
    getAll: (state) => readAllRows(read(state), failedMessage, toItem),
    useList: (state: ListState, pageSize?: number) =>
      useQuery({ ...listQueryOptions(state, pageSize), placeholderData: keepPreviousData }),
  };
}

/** The queue views' money-safety columns (docs/architecture.md, "Money safety"). */
export const MONEY_SAFETY_COLUMNS = 'held_because, proposed_by';

/** What stops a queue's request from being approved by this admin now. */
export interface MoneySafety {
  /** Why the money gate refuses its approval (a lock or a security hold), in the admin's words; null if nothing. */
  heldBecause: string | null;
  /** The admin whose approval awaits a second admin's confirmation; null if none. */
  proposedBy: string | null;
}

/** A view row's person, money and money-safety columns, as every request and transaction list has them. */
export interface PersonMoneyRow {
  id: string;
  user_id: string;
  full_name: string | null;
  email: string | null;
  amount: number;
  available: number | null;
  date: string;
  held_because: string | null;
  proposed_by: string | null;
}

/** The fields every request and transaction item shares. */
export interface PersonMoneyItem extends MoneySafety {
  id: string;
  userId: string;
  userName: string;
  email: string;
  amount: number;
  /** The person's available balance now. */
  available: number;
  date: string;
}

/** The fields every request and transaction item shares, from its view row. */
export function personMoneyFields(row: PersonMoneyRow): PersonMoneyItem {
  return {
    id: row.id,
    userId: row.user_id,
    userName: row.full_name ?? '',
    email: row.email ?? '',
    amount: Number(row.amount),
    available: Number(row.available ?? 0),
    date: row.date,
    heldBecause: row.held_because,
    proposedBy: row.proposed_by,
  };
}
