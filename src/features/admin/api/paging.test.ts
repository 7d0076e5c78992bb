import type { PostgrestError } from '@supabase/supabase-js';
import {
  ADMIN_PAGE_SIZE,
  lastPage,
  pageRange,
  readAllRows,
  readPage,
  toPage,
  type ListAnswer,
} from './paging';

/**
 * A list read that answers as PostgREST does with `count=exact`: the rows in range and the total, or 416
 * PGRST103 for a range that starts past the last row (hosted projects answer so).
 */
function listOf(total: number) {
  const requests: string[] = [];
  const read = (head: boolean) => {
    const counted: ListAnswer<number> = { data: head ? null : [], error: null, count: total };
    return Object.assign(Promise.resolve(counted), {
      range(from: number, to: number): PromiseLike<ListAnswer<number>> {
        requests.push(`${from}-${to}`);
        if (from > 0 && from >= total) {
          const error = {
            code: 'PGRST103',
            message: 'Requested range not satisfiable',
            details: `An offset of ${from} was requested, but there are only ${total} rows.`,
            hint: '',
          } as PostgrestError;
          return Promise.resolve({ data: null, error, count: null });
        }
        const rows = Array.from(
          { length: Math.max(0, Math.min(to, total - 1) - from + 1) },
          (_, i) => from + i,
        );
        return Promise.resolve({ data: rows, error: null, count: total });
      },
    });
  };
  return { read, requests };
}

describe('admin list pages', () => {
  it('asks for 20 rows per page, counted from zero', () => {
    expect(ADMIN_PAGE_SIZE).toBe(20);
    expect(pageRange(0)).toEqual([0, 19]);
    expect(pageRange(2)).toEqual([40, 59]);
  });

  it('maps the rows and keeps the size of the whole list', () => {
    const page = toPage({ data: [{ amount: '12.50' }], error: null, count: 41 }, 'Failed', (row) =>
      Number(row.amount),
    );
    expect(page).toEqual({ rows: [12.5], total: 41 });
  });

  it('throws the list’s own message when the read failed', () => {
    const error = { message: 'permission denied', code: '42501' } as PostgrestError;
    expect(() => toPage({ data: null, error, count: null }, 'Failed to fetch users', (row) => row)).toThrow(
      'Failed to fetch users',
    );
  });

  it('reads a page past the end (416 PGRST103) as no rows with the list’s size, never as a failure', async () => {
    const { read } = listOf(3);
    await expect(readPage(read, 2, 'Failed to fetch users', (row) => row)).resolves.toEqual({
      rows: [],
      total: 3,
    });
    expect(lastPage(3)).toBe(0);
    expect(lastPage(0)).toBe(0);
    expect(lastPage(41)).toBe(2);
  });

  it('reads a whole list a thousand rows at a time, and stops at its end', async () => {
    const { read, requests } = listOf(2_500);
    const rows = await readAllRows(read, 'Failed', (row) => row);
    expect(rows).toHaveLength(2_500);
    expect(rows.at(-1)).toBe(2_499);
    expect(requests).toEqual(['0-999', '1000-1999', '2000-2999']);
  });

  it('reads a list of exactly a thousand rows without asking past its end', async () => {
    const { read, requests } = listOf(1_000);
    expect(await readAllRows(read, 'Failed', (row) => row)).toHaveLength(1_000);
    expect(requests).toEqual(['0-999']);
  });
});
