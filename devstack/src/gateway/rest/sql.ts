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

const comparison = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const isKeywords: Record<string, string> = {
  null: 'null',
  not_null: 'not null',
  true: 'true',
  false: 'false',
  unknown: 'unknown',
};

export function conditionSql(condition: Condition, params: SqlParams): string {
  let sql: string;
  if (condition.kind !== 'filter') {
    const joined = condition.conditions.map((item) => conditionSql(item, params)).join(` ${condition.kind} `);
    sql = `(${joined || (condition.kind === 'and' ? 'true' : 'false')})`;
  } else {
    const column = quoteIdent(condition.column);
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

export function whereSql(conditions: Condition[], params: SqlParams): string {
  return conditions.length
    ? ` where ${conditions.map((item) => conditionSql(item, params)).join(' and ')}`
    : '';
}

export function selectListSql(select: SelectItem[] | undefined): string {
  if (!select) return '*';
  return select
    .map((item) => {
      const value = item.cast ? `${quoteIdent(item.column)}::${item.cast}` : quoteIdent(item.column);
      return `${value} as ${quoteIdent(item.alias ?? item.column)}`;
    })
    .join(', ');
}

function orderSql(order: OrderTerm[]): string {
  if (!order.length) return '';
  const terms = order.map(
    (term) =>
      `${quoteIdent(term.column)} ${term.descending ? 'desc' : 'asc'}${term.nulls ? ` nulls ${term.nulls}` : ''}`,
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
  { withTotal }: { withTotal: boolean },
): string {
  const where = whereSql(query.where, params);
  const page =
    `select ${selectListSql(query.select)} from ${source}${where}${orderSql(query.order)}` +
    (query.limit !== undefined ? ` limit ${query.limit}` : '') +
    (query.offset !== undefined ? ` offset ${query.offset}` : '');
  const total = withTotal ? `(select count(*) from ${source}${where})` : 'null::bigint';
  return `select coalesce(json_agg(_row), '[]')::text as body, count(*) as rows, ${total} as total from (${page}) _row`;
}

/** Wraps a data-modifying statement with `returning *` so the response shows the selected columns. */
export function representationSql(mutation: string, select: SelectItem[] | undefined): string {
  return (
    `with _mutated as (${mutation} returning *) ` +
    `select coalesce(json_agg(_row), '[]')::text as body, count(*) as rows, null::bigint as total ` +
    `from (select ${selectListSql(select)} from _mutated) _row`
  );
}
