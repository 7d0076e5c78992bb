import type { Condition, OrderTerm, ParsedQuery, SelectItem } from './query-grammar';

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Positional parameters for one statement: values never enter the SQL text. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * Where a request's field names come from: columns of the source, or computed fields, functions of the
 * request's schema called on the source's row (aliased `_src`), as PostgREST's computed fields.
 */
export interface FieldScope {
  schema: string;
  computed: ReadonlySet<string>;
  /**
   * The relation whose row a function's result rows are (`returns setof messages`): its computed fields
   * take the row rebuilt as that type, the call's columns being `_src`'s.
   */
  rowType?: string;
}

function fieldSql(name: string, scope: FieldScope | undefined): string {
  if (!scope?.computed.has(name)) return quoteIdent(name);
  const row = scope.rowType
    ? `row(_src.*)::${quoteIdent(scope.schema)}.${quoteIdent(scope.rowType)}`
    : '_src';
  return `${quoteIdent(scope.schema)}.${quoteIdent(name)}(${row})`;
}

/** How the rows are written: a JSON array, or CSV as PostgREST writes it. */
export type BodyFormat = 'json' | 'csv';

/**
 * The body of rows read from `_page` (aliased `_row`). CSV as PostgREST's `asCsvF` (Query/SqlFragment.hs):
 * the first row's field names, then each row's text form without its parentheses (so quoted as Postgres
 * quotes a record's fields); no rows is a lone line break.
 */
export function bodySql(format: BodyFormat): string {
  if (format === 'json') return `coalesce(json_agg(_row), '[]')::text`;
  const header =
    `(select coalesce(string_agg(_key, ','), '') from ` +
    `json_object_keys((select row_to_json(_first) from _page _first limit 1)) _key)`;
  return `${header} || E'\\n' || coalesce(string_agg(substring(_row::text, 2, length(_row::text) - 2), E'\\n'), '')`;
}

const comparison = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const isKeywords: Record<string, string> = {
  null: 'null',
  not_null: 'not null',
  true: 'true',
  false: 'false',
  unknown: 'unknown',
};

export function conditionSql(condition: Condition, params: SqlParams, scope?: FieldScope): string {
  let sql: string;
  if (condition.kind !== 'filter') {
    const joined = condition.conditions
      .map((item) => conditionSql(item, params, scope))
      .join(` ${condition.kind} `);
    sql = `(${joined || (condition.kind === 'and' ? 'true' : 'false')})`;
  } else {
    const column = fieldSql(condition.column, scope);
    const { operator, value } = condition;
    if (operator === 'in') sql = `${column} = any(${params.add(value)})`;
    else if (operator === 'is') sql = `${column} is ${isKeywords[String(value).toLowerCase()]}`;
    else if (operator === 'like' || operator === 'ilike') {
      // No cast: on a non-text column Postgres refuses the operator (42883, 404), as under PostgREST.
      sql = `${column} ${operator} ${params.add(String(value).replace(/\*/g, '%'))}`;
    } else sql = `${column} ${comparison[operator]} ${params.add(value)}`;
  }
  return condition.negate ? `not ${sql}` : sql;
}

export function whereSql(conditions: Condition[], params: SqlParams, scope?: FieldScope): string {
  return conditions.length
    ? ` where ${conditions.map((item) => conditionSql(item, params, scope)).join(' and ')}`
    : '';
}

export function selectListSql(select: SelectItem[] | undefined, scope?: FieldScope): string {
  if (!select) return '*';
  return select
    .map((item) => {
      if (item.column === '*') return '*';
      const field = fieldSql(item.column, scope);
      const value = item.cast ? `${field}::${item.cast}` : field;
      return `${value} as ${quoteIdent(item.alias ?? item.column)}`;
    })
    .join(', ');
}

function orderSql(order: OrderTerm[], scope: FieldScope | undefined): string {
  if (!order.length) return '';
  const terms = order.map(
    (term) =>
      `${fieldSql(term.column, scope)} ${term.descending ? 'desc' : 'asc'}${term.nulls ? ` nulls ${term.nulls}` : ''}`,
  );
  return ` order by ${terms.join(', ')}`;
}

/**
 * One statement that reads a page as a JSON array (built by Postgres, as PostgREST does), its row count
 * and, when asked, the total count for `Content-Range`.
 */
export function readSql(
  source: string,
  query: ParsedQuery,
  params: SqlParams,
  { withTotal, scope, format = 'json' }: { withTotal: boolean; scope?: FieldScope; format?: BodyFormat },
): string {
  const where = whereSql(query.where, params, scope);
  const page =
    `select ${selectListSql(query.select, scope)} from ${source}${where}${orderSql(query.order, scope)}` +
    (query.limit !== undefined ? ` limit ${query.limit}` : '') +
    (query.offset !== undefined ? ` offset ${query.offset}` : '');
  const total = withTotal ? `(select count(*) from ${source}${where})` : 'null::bigint';
  return `with _page as (${page}) select ${bodySql(format)} as body, count(*) as rows, ${total} as total from _page _row`;
}

/** Wraps a data-modifying statement with `returning *` so the response shows the selected columns. */
export function representationSql(
  mutation: string,
  select: SelectItem[] | undefined,
  format: BodyFormat,
): string {
  return (
    `with _mutated as (${mutation} returning *), _page as (select ${selectListSql(select)} from _mutated) ` +
    `select ${bodySql(format)} as body, count(*) as rows, null::bigint as total from _page _row`
  );
}
