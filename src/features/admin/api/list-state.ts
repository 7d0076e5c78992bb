import { isCalendarDay } from '@/lib/calendar-day';

export { isCalendarDay };
/**
 * What an admin list shows (page, sort, search and filters), read from and written to the address bar so a
 * link can be shared and the back button steps through what was shown. Anything in the address that is not
 * valid for the list (a column it cannot sort by, a malformed date) is ignored rather than sent to the server.
 */

export type ListFilterName = 'status' | 'type' | 'method' | 'from' | 'to' | 'user';

export interface ListSort {
  /** A column of the list's view. */
  column: string;
  ascending: boolean;
}

export interface ListState {
  /** Zero-based; the address shows it one-based. */
  page: number;
  sort: ListSort;
  /** Part of a name or e-mail address; empty for everyone. */
  search: string;
  filters: Partial<Record<ListFilterName, string>>;
}

export interface ListDefinition {
  /** Columns a person may sort by; the first sort of the list is `defaultSort`. */
  sortColumns: readonly string[];
  defaultSort: ListSort;
  /** The filters the list offers, each with the values it accepts. */
  filters: Partial<Record<ListFilterName, (value: string) => boolean>>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_TEXT = 100;

export const isUserId = (value: string) => UUID.test(value);

/** A status: built in or an admin-defined status type (up to 50 characters). */
export const isStatusName = (value: string) => value.trim() !== '' && value.length <= 50;

/** The filters every list of people's requests and transactions offers: a date range and one person. */
export const personListFilters = { from: isCalendarDay, to: isCalendarDay, user: isUserId };

/** The first sort of the lists of requests and transactions. */
export const NEWEST_FIRST: ListSort = { column: 'date', ascending: false };

export const oneOf =
  (values: readonly string[]) =>
  (value: string): boolean =>
    values.includes(value);

/** The list's state from the address's query string. */
export function parseListState(params: URLSearchParams, definition: ListDefinition): ListState {
  const pageNumber = Number(params.get('page'));
  const page = Number.isSafeInteger(pageNumber) && pageNumber >= 1 ? pageNumber - 1 : 0;

  const [column = '', direction] = (params.get('sort') ?? '').split('.');
  const sort =
    definition.sortColumns.includes(column) && (direction === 'asc' || direction === 'desc')
      ? { column, ascending: direction === 'asc' }
      : definition.defaultSort;

  const filters: ListState['filters'] = {};
  for (const [name, accepts] of Object.entries(definition.filters) as [
    ListFilterName,
    (value: string) => boolean,
  ][]) {
    const value = params.get(name)?.trim();
    if (value && value.length <= MAX_TEXT && accepts(value)) filters[name] = value;
  }
  // A range that ends before it starts would list nothing: the end is dropped.
  if (filters.from && filters.to && filters.to < filters.from) delete filters.to;

  return { page, sort, search: (params.get('q') ?? '').trim().slice(0, MAX_TEXT), filters };
}

/** The query string for a state: only what differs from the list's first view, in a fixed order. */
export function listStateToParams(state: ListState, definition: ListDefinition): URLSearchParams {
  const params = new URLSearchParams();
  if (state.search.trim()) params.set('q', state.search.trim());
  for (const name of Object.keys(definition.filters) as ListFilterName[]) {
    const value = state.filters[name];
    if (value) params.set(name, value);
  }
  const { column, ascending } = state.sort;
  if (column !== definition.defaultSort.column || ascending !== definition.defaultSort.ascending) {
    params.set('sort', `${column}.${ascending ? 'asc' : 'desc'}`);
  }
  if (state.page > 0) params.set('page', String(state.page + 1));
  return params;
}

/** Whether anything narrows the list (the search or a filter), so an empty page reads "no matches". */
export function isNarrowed(state: ListState): boolean {
  return state.search !== '' || Object.values(state.filters).some(Boolean);
}
