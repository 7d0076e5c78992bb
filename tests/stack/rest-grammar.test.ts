import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../devstack/src/gateway/rest/query-grammar';
import { RestError } from '../../devstack/src/gateway/rest/errors';
import { readSql, SqlParams } from '../../devstack/src/gateway/rest/sql';

function parse(query: string) {
  return parseQuery(new URLSearchParams(query));
}

function refusal(query: string): RestError {
  try {
    parse(query);
  } catch (error) {
    if (error instanceof RestError) return error;
    throw error;
  }
  throw new Error(`'${query}' was accepted`);
}

describe('the PostgREST URL grammar', () => {
  it('reads columns, aliases and casts from select', () => {
    expect(parse('select=id,coin:cryptocurrency,amount::text').select).toEqual([
      { column: 'id', alias: undefined, cast: undefined },
      { column: 'cryptocurrency', alias: 'coin', cast: undefined },
      { column: 'amount', alias: undefined, cast: 'text' },
    ]);
  });

  it('keeps quoted commas inside one in-list value', () => {
    expect(parse('name=in.(plain,"with, comma")').where).toEqual([
      { kind: 'filter', column: 'name', negate: false, operator: 'in', value: ['plain', 'with, comma'] },
    ]);
  });

  it('nests and/or groups and negations', () => {
    expect(parse('or=(amount.lt.10,and(status.eq.pending,amount.not.gt.100))').where).toEqual([
      {
        kind: 'or',
        negate: false,
        conditions: [
          { kind: 'filter', column: 'amount', negate: false, operator: 'lt', value: '10' },
          {
            kind: 'and',
            negate: false,
            conditions: [
              { kind: 'filter', column: 'status', negate: false, operator: 'eq', value: 'pending' },
              { kind: 'filter', column: 'amount', negate: true, operator: 'gt', value: '100' },
            ],
          },
        ],
      },
    ]);
  });

  it('reads order with direction and nulls placement', () => {
    expect(parse('order=date.desc.nullslast,amount').order).toEqual([
      { column: 'date', descending: true, nulls: 'last' },
      { column: 'amount', descending: false },
    ]);
  });

  it('never puts a filter value into the SQL text', () => {
    const params = new SqlParams();
    const sql = readSql('public."t"', parse("name=eq.x'); drop table t; --&amount=in.(1,2)"), params, {
      withTotal: true,
    });
    expect(sql).not.toContain('drop table');
    expect(params.values).toEqual(["x'); drop table t; --", ['1', '2']]);
  });

  it.each([
    ['select=amount,profiles(email)', 'profiles(email)'],
    ['select=details->card', 'details->card'],
    ['amount=fts.bitcoin', "'fts'"],
    ['profiles.email=eq.a', 'profiles.email'],
    ['select=id;drop', 'id;drop'],
    ['limit=ten', 'ten'],
    ['amount=is.maybe', 'maybe'],
  ])('refuses %s with a 400 that names %s', (query, named) => {
    const error = refusal(query);
    expect(error.status).toBe(400);
    expect(`${error.message} ${error.details ?? ''}`).toContain(named);
  });
});
