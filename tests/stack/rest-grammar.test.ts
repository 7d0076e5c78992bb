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
      { column: 'id', path: [], alias: undefined, cast: undefined },
      { column: 'cryptocurrency', path: [], alias: 'coin', cast: undefined },
      { column: 'amount', path: [], alias: undefined, cast: 'text' },
    ]);
  });

  it('keeps quoted commas inside one in-list value', () => {
    expect(parse('name=in.(plain,"with, comma")').where).toEqual([
      {
        kind: 'filter',
        column: 'name',
        path: [],
        negate: false,
        operator: 'in',
        value: ['plain', 'with, comma'],
      },
    ]);
  });

  it('nests and/or groups and negations', () => {
    expect(parse('or=(amount.lt.10,and(status.eq.pending,amount.not.gt.100))').where).toEqual([
      {
        kind: 'or',
        negate: false,
        conditions: [
          { kind: 'filter', column: 'amount', path: [], negate: false, operator: 'lt', value: '10' },
          {
            kind: 'and',
            negate: false,
            conditions: [
              { kind: 'filter', column: 'status', path: [], negate: false, operator: 'eq', value: 'pending' },
              { kind: 'filter', column: 'amount', path: [], negate: true, operator: 'gt', value: '100' },
            ],
          },
        ],
      },
    ]);
  });

  it('reads order with direction and nulls placement', () => {
    expect(parse('order=date.desc.nullslast,amount').order).toEqual([
      { column: 'date', path: [], descending: true, nulls: 'last' },
      { column: 'amount', path: [], descending: false },
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

  // PostgREST src/PostgREST/ApiRequest/QueryParams.hs (pJsonPath, lastJsonKey in Plan.hs).
  it('reads JSON paths in select, filters and order, named after their last key', () => {
    const query = parse('select=data->a->>b,first:data->items->0&data->>"x.y"=eq.1&order=data->n.desc');
    expect(query.select).toEqual([
      {
        column: 'data',
        path: [
          { arrow: '->', operand: 'a', index: false },
          { arrow: '->>', operand: 'b', index: false },
        ],
        alias: undefined,
        cast: undefined,
      },
      {
        column: 'data',
        path: [
          { arrow: '->', operand: 'items', index: false },
          { arrow: '->', operand: '0', index: true },
        ],
        alias: 'first',
        cast: undefined,
      },
    ]);
    expect(query.where).toMatchObject([{ column: 'data', path: [{ arrow: '->>', operand: 'x.y' }] }]);
    expect(query.order).toEqual([
      { column: 'data', path: [{ arrow: '->', operand: 'n', index: false }], descending: true },
    ]);
  });

  // PostgREST src/PostgREST/ApiRequest/QueryParams.hs (pOpExpr: quantifiers, full-text languages).
  it('reads quantified operators, full-text languages and array values inside or=()', () => {
    expect(parse('name=like(any).{a*,b*}&doc=not.fts(english).cat').where).toMatchObject([
      { column: 'name', operator: 'like', quantifier: 'any', value: '{a*,b*}', negate: false },
      { column: 'doc', operator: 'fts', language: 'english', value: 'cat', negate: true },
    ]);
    expect(parse('or=(tags.cs.{a,b},tags.ov.{c})').where).toMatchObject([
      {
        kind: 'or',
        conditions: [
          { column: 'tags', operator: 'cs', value: '{a,b}' },
          { column: 'tags', operator: 'ov', value: '{c}' },
        ],
      },
    ]);
  });

  it.each([
    ['select=amount,profiles(email)', 'profiles(email)'],
    ['amount=near.10', 'near.10'],
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
