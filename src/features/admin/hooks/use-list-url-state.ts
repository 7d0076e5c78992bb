import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  listStateToParams,
  parseListState,
  type ListDefinition,
  type ListFilterName,
  type ListSort,
  type ListState,
} from '../api/list-state';

export interface ListUrlState {
  state: ListState;
  setPage: (page: number, options?: { replace?: boolean }) => void;
  setSort: (sort: ListSort) => void;
  setSearch: (search: string) => void;
  setFilter: (name: ListFilterName, value: string | undefined) => void;
  clear: () => void;
}

/**
 * A list's page, sort, search and filters, kept in the address: each change is a new history entry (the
 * back button returns to what was shown before), and a change of what is listed starts again at page 1.
 */
export function useListUrlState(definition: ListDefinition): ListUrlState {
  const [params, setParams] = useSearchParams();
  const query = params.toString();
  // A new object only when the address changes, so query keys and effects stay put between renders.
  const state = useMemo(() => parseListState(new URLSearchParams(query), definition), [query, definition]);

  const go = useCallback(
    (next: ListState, replace = false) => setParams(listStateToParams(next, definition), { replace }),
    [setParams, definition],
  );

  return useMemo<ListUrlState>(
    () => ({
      state,
      setPage: (page, options) => go({ ...state, page }, options?.replace),
      setSort: (sort) => go({ ...state, sort, page: 0 }),
      setSearch: (search) => go({ ...state, search, page: 0 }),
      setFilter: (name, value) => go({ ...state, filters: { ...state.filters, [name]: value }, page: 0 }),
      clear: () => go({ ...state, search: '', filters: {}, page: 0 }),
    }),
    [state, go],
  );
}
