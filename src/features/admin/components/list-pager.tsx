import { useEffect } from 'react';
import { lastPage, type Page } from '../api/paging';
import type { ListUrlState } from '../hooks/use-list-url-state';
import { Pager } from './pager';

/**
 * The pager of a list kept in the address. A page past the end (an old link, or a search or deletion
 * that shortened the list) is no error: the address moves to the last page that has rows, replacing the
 * stale entry so the back button does not return to it.
 */
export function ListPager<Row>({
  label,
  data,
  held,
  list: { state, setPage },
}: {
  label: string;
  data: Page<Row> | undefined;
  /** Rows of the page held back behind a live list's "N new". */
  held: number;
  list: ListUrlState;
}) {
  const last = data ? lastPage(data.total) : undefined;
  useEffect(() => {
    if (last !== undefined && state.page > last) setPage(last, { replace: true });
  }, [last, state.page, setPage]);
  if (!data) return null;
  return (
    <Pager
      label={label}
      page={Math.min(state.page, last ?? 0)}
      total={data.total}
      held={held}
      onPageChange={setPage}
    />
  );
}
