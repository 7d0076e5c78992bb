import type { InfiniteData } from '@tanstack/react-query';

/**
 * Lists of a person's own rows read a page at a time: hosted Supabase answers at most `max_rows`
 * (1,000) rows per read and cuts the rest silently, so no list may ask for all of them.
 */
export const LIST_PAGE_SIZE = 50;

export interface RowsPage<Row> {
  rows: Row[];
  /** Whether older rows exist beyond this page. */
  hasMore: boolean;
}

/** The inclusive range of page `page`, one row longer than a page, to learn whether more exist. */
export function pageRange(page: number): [from: number, to: number] {
  const from = page * LIST_PAGE_SIZE;
  return [from, from + LIST_PAGE_SIZE];
}

export function toPage<Row>(rows: Row[]): RowsPage<Row> {
  return { rows: rows.slice(0, LIST_PAGE_SIZE), hasMore: rows.length > LIST_PAGE_SIZE };
}

/** The options every paged list shares with `useInfiniteQuery`: pages by number, rows as one list. */
export function pagedListOptions<Row>() {
  return {
    initialPageParam: 0,
    getNextPageParam: (last: RowsPage<Row>, all: RowsPage<Row>[]) => (last.hasMore ? all.length : undefined),
    select: (data: InfiniteData<RowsPage<Row>>) => data.pages.flatMap((page) => page.rows),
  };
}

/** Changes the rows of a cached paged list (`first` only: where a new row belongs). */
export function mapPagedRows<Row>(
  data: InfiniteData<RowsPage<Row>> | undefined,
  change: (rows: Row[], pageIndex: number) => Row[],
): InfiniteData<RowsPage<Row>> | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page, index) => ({ ...page, rows: change(page.rows, index) })) };
}
