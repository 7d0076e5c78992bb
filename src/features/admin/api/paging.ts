import type { PostgrestError } from '@supabase/supabase-js';

/** Rows per page of every admin list; each page is one request with `range` and `count=exact`. */
export const ADMIN_PAGE_SIZE = 20;

/** Rows per request when a whole list is read (CSV export): PostgREST's usual `max-rows` on hosted projects. */
export const EXPORT_CHUNK_SIZE = 1_000;

/**
 * PostgREST's answer (416) to a range that starts past the last row, given with `count=exact`: for example
 * page 3 of a list that a search or a deletion has just shortened to one page.
 * PostgREST's `docs/errors.rst` lists it; the local stack's REST layer answers an empty page instead.
 */
export const RANGE_NOT_SATISFIABLE = 'PGRST103';

/** One page of a server-paginated list and the number of rows in the whole list. */
export interface Page<Row> {
  rows: Row[];
  total: number;
}

export interface ListAnswer<Row> {
  data: Row[] | null;
  error: PostgrestError | null;
  count: number | null;
}

/** A list's read, ready for a range (`count=exact`), or, with `head`, for its count alone. */
export type ListRead<Row> = (head: boolean) => PromiseLike<ListAnswer<Row>> & {
  range(from: number, to: number): PromiseLike<ListAnswer<Row>>;
};

/** The inclusive row range of a zero-based page, as PostgREST's `range` takes it. */
export function pageRange(page: number, pageSize = ADMIN_PAGE_SIZE): [from: number, to: number] {
  const from = page * pageSize;
  return [from, from + pageSize - 1];
}

/**
 * One page from a PostgREST answer made with `count=exact`: its rows mapped for the screen and the size of
 * the whole list; a failed read throws the list's own message (the specification's text).
 */
export function toPage<Row, Item>(
  answer: ListAnswer<Row>,
  failedMessage: string,
  toItem: (row: Row) => Item,
): Page<Item> {
  const { data, error, count } = answer;
  if (error || !data) throw new Error(failedMessage, { cause: error });
  return { total: count ?? data.length, rows: data.map(toItem) };
}

/**
 * One page of a list. A page past the end is no failure: it is an empty page with the list's size (read
 * by a count-only request when the server answered 416), so the screen can go to the last page.
 */
export async function readPage<Row, Item>(
  read: ListRead<Row>,
  page: number,
  failedMessage: string,
  toItem: (row: Row) => Item,
  pageSize = ADMIN_PAGE_SIZE,
): Promise<Page<Item>> {
  const answer = await read(false).range(...pageRange(page, pageSize));
  if (answer.error?.code !== RANGE_NOT_SATISFIABLE) return toPage(answer, failedMessage, toItem);
  const counted = await read(true);
  if (counted.error) throw new Error(failedMessage, { cause: counted.error });
  return { rows: [], total: counted.count ?? 0 };
}

/** Every row of a list in its order, a chunk at a time (for an export of what a person has filtered). */
export async function readAllRows<Row, Item>(
  read: ListRead<Row>,
  failedMessage: string,
  toItem: (row: Row) => Item,
): Promise<Item[]> {
  const items: Item[] = [];
  for (let chunk = 0; ; chunk++) {
    const { rows, total } = await readPage(read, chunk, failedMessage, toItem, EXPORT_CHUNK_SIZE);
    items.push(...rows);
    if (rows.length < EXPORT_CHUNK_SIZE || items.length >= total) return items;
  }
}

/** The last page that has rows (0 for an empty list). */
export function lastPage(total: number): number {
  return Math.max(0, Math.ceil(total / ADMIN_PAGE_SIZE) - 1);
}
