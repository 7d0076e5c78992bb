/** Rows per page of every admin list; each page is one request with `range` and `count=exact`. */
export const ADMIN_PAGE_SIZE = 20;

/** One page of a server-paginated list and the number of rows in the whole list. */
export interface Page<Row> {
  rows: Row[];
  total: number;
}

/** The inclusive row range of a zero-based page, as PostgREST's `range` takes it. */
export function pageRange(page: number): [from: number, to: number] {
  const from = page * ADMIN_PAGE_SIZE;
  return [from, from + ADMIN_PAGE_SIZE - 1];
}
