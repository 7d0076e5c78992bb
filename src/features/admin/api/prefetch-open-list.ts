import { queryClient } from '@/lib/query-client';
import type { AdminList } from './list-query';
import { parseListState } from './list-state';
import { statusTypesQueryOptions } from './get-status-types';

/**
 * Starts reading the list that the address opens (a deep link, a reload) as soon as its page's code has
 * loaded, alongside the session and role checks, instead of after them: the first rows no longer wait for
 * that round trip. Row-level security decides what the read returns, so reading before the role is known
 * shows nobody anything. Other pages' code, loaded ahead of a visit, reads nothing.
 */
export function prefetchOpenList(
  path: string,
  list: AdminList<unknown>,
  { withStatusTypes = false }: { withStatusTypes?: boolean } = {},
): void {
  if (typeof window === 'undefined' || window.location.pathname !== path) return;
  void list.prefetch(parseListState(new URLSearchParams(window.location.search), list.definition));
  // The lists whose rows offer a status dropdown show their rows once the status types are there too.
  if (withStatusTypes) void queryClient.prefetchQuery(statusTypesQueryOptions);
}
