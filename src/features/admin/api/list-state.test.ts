import {
  isCalendarDay,
  isStatusName,
  isUserId,
  listStateToParams,
  oneOf,
  parseListState,
  type ListDefinition,
} from './list-state';

const requests: ListDefinition = {
  sortColumns: ['date', 'amount'],
  defaultSort: { column: 'date', ascending: false },
  filters: {
    status: isStatusName,
    method: oneOf(['bank', 'card', 'wallet']),
    from: isCalendarDay,
    to: isCalendarDay,
    user: isUserId,
  },
};
const personId = '0b0c6f1e-4a3b-4c2d-9e8f-7a6b5c4d3e2f';
const parse = (query: string) => parseListState(new URLSearchParams(query), requests);

describe('an admin list read from the address', () => {
  it('is the first page, newest first, unfiltered when the address says nothing', () => {
    expect(parse('')).toEqual({
      page: 0,
      sort: { column: 'date', ascending: false },
      search: '',
      filters: {},
    });
  });

  it('takes the one-based page, the sort, the search and every filter the list offers', () => {
    expect(
      parse(
        `page=3&sort=amount.asc&q=+Jane+&status=processing&method=card&from=2026-11-01&to=2026-11-30&user=${personId}`,
      ),
    ).toEqual({
      page: 2,
      sort: { column: 'amount', ascending: true },
      search: 'Jane',
      filters: {
        status: 'processing',
        method: 'card',
        from: '2026-11-01',
        to: '2026-11-30',
        user: personId,
      },
    });
  });

  it('ignores what the list cannot use instead of sending it to the server', () => {
    expect(
      parse(
        'page=-2&sort=encrypted_data.asc&method=cash&from=2026-02-30&to=yesterday&user=1%20or%201=1&type=buy',
      ),
    ).toEqual(parse(''));
    expect(parse('page=1.5').page).toBe(0);
    expect(parse('page=abc').page).toBe(0);
    expect(parse('sort=amount.sideways').sort).toEqual({ column: 'date', ascending: false });
    expect(parse(`status=${'x'.repeat(51)}`).filters).toEqual({});
  });

  it('drops an end date before the start date, which would list nothing', () => {
    expect(parse('from=2026-11-10&to=2026-11-01').filters).toEqual({ from: '2026-11-10' });
  });
});

describe('an admin list written to the address', () => {
  it('says only what differs from the first view, so the plain list has a plain address', () => {
    expect(listStateToParams(parse(''), requests).toString()).toBe('');
  });

  it('reads back as the same state (a shared link shows what its sender saw)', () => {
    const state = parse(`page=4&sort=amount.desc&q=jane&status=pending&from=2026-11-01&user=${personId}`);
    const params = listStateToParams(state, requests);
    expect(params.toString()).toBe(
      `q=jane&status=pending&from=2026-11-01&user=${personId}&sort=amount.desc&page=4`,
    );
    expect(parseListState(params, requests)).toEqual(state);
  });
});

describe('the filter values', () => {
  it('are real calendar days', () => {
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2026-02-29')).toBe(false);
    expect(isCalendarDay('2026-1-5')).toBe(false);
  });
});
