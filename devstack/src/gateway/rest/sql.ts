import {
  fieldName,
  type Condition,
  type FilterCondition,
  type Field,
  type OrderTerm,
  type ParsedQuery,
  type SelectItem,
} from './query-grammar';

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
  /** The source's column types (the base type of a domain), where known. */
  types?: ReadonlyMap<string, string>;
}

function columnSql(name: string, scope: FieldScope | undefined): string {
  if (!scope?.computed.has(name)) return quoteIdent(name);
  const row = scope.rowType
    ? `row(_src.*)::${quoteIdent(scope.schema)}.${quoteIdent(scope.rowType)}`
    : '_src';
  return `${quoteIdent(scope.schema)}.${quoteIdent(name)}(${row})`;
}

/**
 * A field's SQL: the column (or computed field), followed by its JSON path. A column that is not json or
 * jsonb is first made jsonb (`to_jsonb`), as PostgREST's `pgFmtField` (Query/SqlFragment.hs); keys and
 * indexes are parameters.
 */
function fieldSql(field: Field, scope: FieldScope | undefined, params: SqlParams): string {
  const column = columnSql(field.column, scope);
  if (!field.path.length) return column;
  const type = scope?.types?.get(field.column);
  const json = type === 'json' || type === 'jsonb' ? column : `to_jsonb(${column})`;
  return (
    json +
    field.path
      .map((step) => `${step.arrow}${params.add(step.operand)}::${step.index ? 'integer' : 'text'}`)
      .join('')
  );
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

/** PostgREST's operators in SQL (Query/SqlFragment.hs `simpleOperator`, `quantOperator`, `ftsOperator`). */
const sqlOperators: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
};
const textSearchQueries: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};
const isKeywords: Record<string, string> = {
  null: 'null',
  not_null: 'not null',
  true: 'true',
  false: 'false',
  unknown: 'unknown',
};

/**
 * One filter's SQL. Values are parameters of unknown type, so Postgres reads them as the column's type
 * (an array literal for `any`/`all`, a range for `sl`, JSON for `cs` on jsonb), as PostgREST's literals.
 */
function filterSql(condition: FilterCondition, params: SqlParams, scope?: FieldScope): string {
  const { operator, value } = condition;
  let field = fieldSql(condition, scope, params);
  if (operator === 'in') return `${field} = any(${params.add(value)})`;
  if (operator === 'is') return `${field} is ${isKeywords[String(value).toLowerCase()]}`;
  if (operator === 'isdistinct') return `${field} is distinct from ${params.add(value)}`;
  const language = condition.language === undefined ? '' : `${params.add(condition.language)}::regconfig, `;
  if (operator in textSearchQueries) {
    // A column of another type than tsvector is made one with the same configuration (Plan.hs ToTsVector).
    const type = scope?.types?.get(condition.column);
    if (type !== undefined && type !== 'tsvector' && !condition.path.length)
      field = `to_tsvector(${language}${field})`;
    return `${field} @@ ${textSearchQueries[operator]}(${language}${params.add(value)})`;
  }
  // No cast: on a non-text column Postgres refuses `like` (42883, 404), as under PostgREST.
  const pattern = operator === 'like' || operator === 'ilike' ? String(value).replace(/\*/g, '%') : value;
  const operand = params.add(pattern);
  const quantified = condition.quantifier ? `${condition.quantifier}(${operand})` : operand;
  return `${field} ${sqlOperators[operator]} ${quantified}`;
}

export function conditionSql(condition: Condition, params: SqlParams, scope?: FieldScope): string {
  let sql: string;
  if (condition.kind !== 'filter') {
    const joined = condition.conditions
      .map((item) => conditionSql(item, params, scope))
      .join(` ${condition.kind} `);
    sql = `(${joined || (condition.kind === 'and' ? 'true' : 'false')})`;
  } else sql = filterSql(condition, params, scope);
  return condition.negate ? `not ${sql}` : sql;
}

export function whereSql(conditions: Condition[], params: SqlParams, scope?: FieldScope): string {
  return conditions.length
    ? ` where ${conditions.map((item) => conditionSql(item, params, scope)).join(' and ')}`
    : '';
}

export function selectListSql(
  select: SelectItem[] | undefined,
  params: SqlParams,
  scope?: FieldScope,
): string {
  if (!select) return '*';
  return select
    .map((item) => {
      if (item.column === '*') return '*';
      const field = fieldSql(item, scope, params);
      const value = item.cast ? `cast(${field} as ${item.cast})` : field;
      return `${value} as ${quoteIdent(item.alias ?? fieldName(item))}`;
    })
    .join(', ');
}

function orderSql(order: OrderTerm[], params: SqlParams, scope: FieldScope | undefined): string {
  if (!order.length) return '';
  const terms = order.map(
    (term) =>
      `${fieldSql(term, scope, params)} ${term.descending ? 'desc' : 'asc'}${term.nulls ? ` nulls ${term.nulls}` : ''}`,
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
  const list = selectListSql(query.select, params, scope);
  const where = whereSql(query.where, params, scope);
  const page =
    `select ${list} from ${source}${where}${orderSql(query.order, params, scope)}` +
    (query.limit !== undefined ? ` limit ${query.limit}` : '') +
    (query.offset !== undefined ? ` offset ${query.offset}` : '');
  const total = withTotal ? `(select count(*) from ${source}${where})` : 'null::bigint';
  return `with _page as (${page}) select ${bodySql(format)} as body, count(*) as rows, ${total} as total from _page _row`;
}

/** Wraps a data-modifying statement with `returning *` so the response shows the selected columns. */
export function representationSql(
  mutation: string,
  select: SelectItem[] | undefined,
  params: SqlParams,
  format: BodyFormat,
): string {
  return (
    `with _mutated as (${mutation} returning *), _page as (select ${selectListSql(select, params)} from _mutated) ` +
    `select ${bodySql(format)} as body, count(*) as rows, null::bigint as total from _page _row`
  );
}
