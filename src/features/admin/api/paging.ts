import type { PostgrestError } from '@supabase/supabase-js';

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

/**
 * One page from a PostgREST answer made with `count=exact`: its rows mapped for the screen and the size of
 * the whole list; a failed read throws the list's own message (the specification's text).
 */
export function toPage<Row, Item>(
  answer: { data: Row[] | null; error: PostgrestError | null; count: number | null },
  failedMessage: string,
  toItem: (row: Row) => Item,
): Page<Item> {
  const { data, error, count } = answer;
  if (error || !data) throw new Error(failedMessage, { cause: error });
  return { total: count ?? data.length, rows: data.map(toItem) };
}
