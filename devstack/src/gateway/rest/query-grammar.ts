import { restErrors } from './errors';

export type FilterOperator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'is' | 'like' | 'ilike';
const filterOperators = new Set<string>(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'is', 'like', 'ilike']);
const isValues = new Set(['null', 'not_null', 'true', 'false', 'unknown']);

export type Condition =
  | { kind: 'filter'; column: string; negate: boolean; operator: FilterOperator; value: string | string[] }
  | { kind: 'and' | 'or'; negate: boolean; conditions: Condition[] };

export interface SelectItem {
  column: string;
  alias?: string;
  cast?: string;
}

export interface OrderTerm {
  column: string;
  descending: boolean;
  nulls?: 'first' | 'last';
}

export interface ParsedQuery {
  /** `undefined` means `*`. */
  select?: SelectItem[];
  where: Condition[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
  onConflict?: string[];
  columns?: string[];
}

const identifier = /^[A-Za-z_][A-Za-z0-9_$]*$/;

function checkIdentifier(name: string, where: string): string {
  if (!identifier.test(name))
    throw restErrors.parse(`Unsupported ${where}`, `"${name}" is not a plain column name`);
  return name;
}

/** Splits on commas outside parentheses and double quotes. */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (char === '\\' && quoted && i + 1 < text.length) {
      current += char + text[++i];
      continue;
    }
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === '(') depth++;
    else if (!quoted && char === ')') depth--;
    if (char === ',' && depth === 0 && !quoted) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

function unquote(value: string): string {
  return /^".*"$/.test(value) ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}

/** A column as PostgREST reads it: a plain identifier, or any name in double quotes (`"my column"`). */
function columnName(raw: string, where: string): string {
  if (!/^".+"$/.test(raw)) return checkIdentifier(raw, where);
  return unquote(raw);
}

export function parseSelect(text: string): SelectItem[] | undefined {
  const items = splitTopLevel(text).map((item) => item.trim());
  if (items.length === 1 && items[0] === '*') return undefined;
  // The real cause first: `*,rel(...)` is an embedding, whatever else the list holds.
  const embedding = items.find((item) => item.includes('(') && !/^".*"$/.test(item));
  if (embedding) throw restErrors.unsupported(`resource embedding or aggregate in select: '${embedding}'`);
  return items.map((item) => {
    if (item.includes('('))
      throw restErrors.unsupported(`resource embedding or aggregate in select: '${item}'`);
    if (item.includes('->')) throw restErrors.unsupported(`JSON path in select: '${item}'`);
    if (item.startsWith('...')) throw restErrors.unsupported(`spread in select: '${item}'`);
    // `*` beside other fields, as in `*,created_ago` (a computed field).
    if (item === '*') return { column: '*' };
    const [head = '', cast] = item.split('::');
    const aliasSplit = head.split(':');
    const [first = '', second = ''] = aliasSplit;
    const column = aliasSplit.length === 2 ? second : first;
    const alias = aliasSplit.length === 2 ? aliasSplit[0] : undefined;
    if (aliasSplit.length > 2 || column === '')
      throw restErrors.parse('Unsupported select item', `'${item}'`);
    return {
      column: columnName(column, 'column in select'),
      alias: alias === undefined ? undefined : checkIdentifier(alias, 'alias in select'),
      cast: cast === undefined ? undefined : checkIdentifier(cast, 'cast in select'),
    };
  });
}

/** `op.value` or `not.op.value`, as in `?amount=gte.10`. */
function parseOperation(rawColumn: string, text: string): Condition {
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  const operator = dot === -1 ? rest : rest.slice(0, dot);
  const raw = dot === -1 ? '' : rest.slice(dot + 1);
  if (!filterOperators.has(operator))
    throw restErrors.unsupported(`filter operator '${operator}' on '${rawColumn}'`);
  const column = columnName(rawColumn, 'filter column');
  if (operator === 'in') {
    const list = raw.match(/^\((.*)\)$/s);
    if (!list)
      throw restErrors.parse('Invalid in filter', `Expected in.(a,b,...) for '${column}', got '${raw}'`);
    const items = list[1] === '' ? [] : splitTopLevel(list[1] ?? '').map((item) => unquote(item.trim()));
    return { kind: 'filter', column, negate, operator: 'in', value: items };
  }
  if (operator === 'is' && !isValues.has(raw.toLowerCase())) {
    throw restErrors.parse(
      'Invalid is filter',
      `'${raw}' is not one of null, not_null, true, false, unknown`,
    );
  }
  return { kind: 'filter', column, negate, operator: operator as FilterOperator, value: raw };
}

/**
 * How deeply `and`/`or` groups may nest. Each level rescans its text, so without a bound a hostile
 * `or=(and(or(…)))` costs the gateway time quadratic in its length; real filters nest two or three deep.
 */
export const maxLogicDepth = 10;

/** `or=(a.eq.1,and(b.gt.2,c.is.null))` and its `and`/`not.` forms. */
function parseLogical(kind: 'and' | 'or', negate: boolean, text: string, depth = 1): Condition {
  if (depth > maxLogicDepth) {
    throw restErrors.parse(`Invalid ${kind} filter`, `and/or groups nest more than ${maxLogicDepth} deep`);
  }
  const group = text.match(/^\((.*)\)$/s);
  if (!group) throw restErrors.parse(`Invalid ${kind} filter`, `Expected ${kind}=(...), got '${text}'`);
  const conditions = splitTopLevel(group[1] ?? '').map((part): Condition => {
    const item = part.trim();
    const nested = item.match(/^(not\.)?(and|or)(\(.*\))$/s);
    if (nested)
      return parseLogical(nested[2] as 'and' | 'or', Boolean(nested[1]), nested[3] ?? '', depth + 1);
    const dot = item.indexOf('.');
    if (dot === -1) throw restErrors.parse(`Invalid ${kind} filter`, `'${item}'`);
    return parseOperation(item.slice(0, dot), item.slice(dot + 1));
  });
  return { kind, negate, conditions };
}

function parseOrder(text: string): OrderTerm[] {
  return splitTopLevel(text).map((term) => {
    if (term.includes('->')) throw restErrors.unsupported(`JSON path in order: '${term.trim()}'`);
    const [column, ...modifiers] = term.trim().split('.');
    const order: OrderTerm = { column: columnName(column ?? '', 'order column'), descending: false };
    for (const modifier of modifiers) {
      if (modifier === 'asc' || modifier === 'desc') order.descending = modifier === 'desc';
      else if (modifier === 'nullsfirst' || modifier === 'nullslast')
        order.nulls = modifier === 'nullsfirst' ? 'first' : 'last';
      else throw restErrors.parse('Invalid order', `Unknown order modifier '${modifier}' in '${term}'`);
    }
    return order;
  });
}

function nonNegativeInteger(name: string, text: string): number {
  if (!/^\d+$/.test(text))
    throw restErrors.parse(`Invalid ${name}`, `'${text}' is not a non-negative integer`);
  return Number(text);
}

function parseColumnList(name: string, text: string): string[] {
  return splitTopLevel(text).map((column) => columnName(column.trim(), `${name} column`));
}

/** PostgREST's URL grammar, the part our app uses; anything else is a 400 naming the part. */
export function parseQuery(params: URLSearchParams): ParsedQuery {
  const query: ParsedQuery = { where: [], order: [] };
  for (const [key, value] of params) {
    if (key === 'select') query.select = parseSelect(value);
    else if (key === 'order') query.order.push(...parseOrder(value));
    else if (key === 'limit') query.limit = nonNegativeInteger('limit', value);
    else if (key === 'offset') query.offset = nonNegativeInteger('offset', value);
    else if (key === 'on_conflict') query.onConflict = parseColumnList('on_conflict', value);
    else if (key === 'columns') query.columns = parseColumnList('columns', value);
    else if (key === 'apikey') continue;
    else if (/^(not\.)?(and|or)$/.test(key)) {
      query.where.push(parseLogical(key.endsWith('or') ? 'or' : 'and', key.startsWith('not.'), value));
    } else if (key.includes('.') || key.includes('->')) {
      throw restErrors.unsupported(`filter on embedded resource or JSON path: '${key}'`);
    } else query.where.push(parseOperation(key, value));
  }
  return query;
}

/** Every column a condition tree mentions, for validation against the catalogue. */
export function conditionColumns(conditions: Condition[]): string[] {
  return conditions.flatMap((condition) =>
    condition.kind === 'filter' ? [condition.column] : conditionColumns(condition.conditions),
  );
}
