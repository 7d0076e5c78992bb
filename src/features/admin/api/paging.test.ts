import type { PostgrestError } from '@supabase/supabase-js';
import { ADMIN_PAGE_SIZE, pageRange, toPage } from './paging';

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
});
