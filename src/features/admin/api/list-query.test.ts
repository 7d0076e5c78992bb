import { startOfDay } from '@/lib/calendar-day';
import { applyListState, searchPattern, type FilterableRequest } from './list-query';
import type { ListState } from './list-state';

/** Records the PostgREST query parameters a list's state adds, as supabase-js would send them. */
class RecordedRequest implements FilterableRequest<RecordedRequest> {
  readonly params: string[] = [];
  filter(column: string, operator: string, value: unknown) {
    this.params.push(`${column}=${operator}.${String(value)}`);
    return this;
  }
  or(filters: string) {
    this.params.push(`or=(${filters})`);
    return this;
  }
  order(column: string, options?: { ascending?: boolean }) {
    this.params.push(`order=${column}.${options?.ascending ? 'asc' : 'desc'}`);
    return this;
  }
}

const firstView: ListState = { page: 0, sort: { column: 'date', ascending: false }, search: '', filters: {} };
const columns = { date: 'date', search: ['full_name', 'email'] };

describe('an admin list’s state sent to the server', () => {
  it('is only the order, newest first and then by id, for the first view', () => {
    expect(applyListState(new RecordedRequest(), firstView, columns).params).toEqual([
      'order=date.desc',
      'order=id.asc',
    ]);
  });

  it('filters by status, type, method and person, a date range in the viewer’s days, and searches name or e-mail', () => {
    const { params } = applyListState(
      new RecordedRequest(),
      {
        page: 3,
        sort: { column: 'amount', ascending: true },
        search: 'jane',
        filters: {
          status: 'pending',
          type: 'deposit',
          method: 'card',
          user: '0b0c6f1e-4a3b-4c2d-9e8f-7a6b5c4d3e2f',
          from: '2026-11-01',
          to: '2026-11-30',
        },
      },
      columns,
    );
    expect(params).toEqual([
      'status=eq.pending',
      'type=eq.deposit',
      'withdraw_method=eq.card',
      'user_id=eq.0b0c6f1e-4a3b-4c2d-9e8f-7a6b5c4d3e2f',
      `date=gte.${new Date(2026, 10, 1).toISOString()}`,
      `date=lt.${new Date(2026, 11, 1).toISOString()}`,
      'or=(full_name.ilike.*jane*,email.ilike.*jane*)',
      'order=amount.asc',
      'order=id.asc',
    ]);
  });

  it('keeps characters of the filter grammar out of the search', () => {
    expect(searchPattern('a,b(c)*"%')).toBe('*a b c*');
    expect(searchPattern(' ,() ')).toBeUndefined();
  });

  it('ends a date range at the start of the next day', () => {
    expect(startOfDay('2026-12-31', 1)).toBe(new Date(2027, 0, 1).toISOString());
  });
});
