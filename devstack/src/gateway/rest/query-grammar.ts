import { restErrors } from './errors';

/**
 * PostgREST's operators (ApiRequest/QueryParams.hs): the quantifiable ones take `(any)`/`(all)` with an
 * array value, the full-text ones an optional language, `in` a list, `is` a keyword.
 */
const quantifiable = ['eq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch'] as const;
const simple = ['neq', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'] as const;
const fullText = ['fts', 'plfts', 'phfts', 'wfts'] as const;
export type QuantifiableOperator = (typeof quantifiable)[number];
export type FullTextOperator = (typeof fullText)[number];
export type FilterOperator =
  QuantifiableOperator | (typeof simple)[number] | FullTextOperator | 'in' | 'is' | 'isdistinct';
const filterOperators = new Set<string>([...quantifiable, ...simple, ...fullText, 'in', 'is', 'isdistinct']);
const isValues = new Set(['null', 'not_null', 'true', 'false', 'unknown']);

/** One step of a JSON path (`->'key'`, `->>2`): PostgREST's `JsonOperation`. */
export interface JsonStep {
  arrow: '->' | '->>';
  /** A key, or an array index when `index`. */
  operand: string;
  index: boolean;
}

/** A column, with the JSON path into it when one is given (`data->a->>b`). */
export interface Field {
  column: string;
  path: JsonStep[];
}

export interface FilterCondition extends Field {
  kind: 'filter';
  negate: boolean;
  operator: FilterOperator;
  value: string | string[];
  /** `eq(any).{a,b}`: the value is an array compared with `any` or `all`. */
  quantifier?: 'any' | 'all';
  /** `fts(english).cat`: the text search configuration. */
  language?: string;
}

export type Condition = FilterCondition | { kind: 'and' | 'or'; negate: boolean; conditions: Condition[] };

export interface SelectItem extends Field {
  alias?: string;
  cast?: string;
}

export interface OrderTerm extends Field {
  descending: boolean;
  nulls?: 'first' | 'last';
}

/**
 * The name a field is answered under without an alias: its last JSON key (the column for a path of only
 * indexes), as PostgREST's `lastJsonKey` (Plan.hs).
 */
export function fieldName(field: Field): string {
  const last = field.path.at(-1);
  if (!last) return field.column;
  if (!last.index) return last.operand;
  return [...field.path].reverse().find((step) => !step.index)?.operand ?? field.column;
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

/** Splits on commas outside parentheses, braces (array values) and double quotes. */
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
    else if (!quoted && (char === '(' || char === '{')) depth++;
    else if (!quoted && (char === ')' || char === '}')) depth--;
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

const quotedName = String.raw`"(?:[^"\\]|\\.)*"`;
/** A column token: quoted, or up to a JSON arrow, a cast, a modifier or a list separator. */
const columnToken = new RegExp(String.raw`(?:${quotedName}|(?:[^.,:()!>"-]|-(?!>))+)`, 'y');
/**
 * A JSON path step (QueryParams.hs `pJsonPath`): an arrow, then a quoted key, an index (digits, ending the
 * field) or a key of any characters but `(-:.,>)` (a dash not starting an arrow is allowed).
 */
const jsonStep = new RegExp(
  String.raw`(->>|->)(?:(${quotedName})|(-?\d+)(?=->|::|\.|,|$)|((?:[^(\-:.,>)]|-(?!>))+))`,
  'y',
);

/** A field at the start of `text` (a column and its JSON path), and what follows it. */
function readField(text: string, where: string): { field: Field; rest: string } {
  columnToken.lastIndex = 0;
  const column = columnToken.exec(text)?.[0];
  if (!column) throw restErrors.parse(`Unsupported ${where}`, `'${text}' does not start with a column`);
  const path: JsonStep[] = [];
  let at = column.length;
  for (;;) {
    jsonStep.lastIndex = at;
    const step = jsonStep.exec(text);
    if (!step) break;
    const [whole, arrow, quoted, index, key] = step;
    path.push({
      arrow: arrow as JsonStep['arrow'],
      operand: quoted !== undefined ? unquote(quoted) : (index ?? key?.trim() ?? ''),
      index: index !== undefined,
    });
    at += whole.length;
  }
  if (text.startsWith('->', at)) throw restErrors.parse(`Invalid JSON path in ${where}`, `'${text}'`);
  return { field: { column: columnName(column.trim(), where), path }, rest: text.slice(at) };
}

/** A whole text that is one field, as a filter's key is. */
function wholeField(text: string, where: string): Field {
  const { field, rest } = readField(text, where);
  if (rest !== '') throw restErrors.parse(`Unsupported ${where}`, `'${text}'`);
  return field;
}

export function parseSelect(text: string): SelectItem[] | undefined {
  const items = splitTopLevel(text).map((item) => item.trim());
  if (items.length === 1 && items[0] === '*') return undefined;
  // The real cause first: `*,rel(...)` is an embedding, whatever else the list holds.
  const embedding = items.find((item) => item.includes('(') && !/^".*"$/.test(item));
  if (embedding) throw restErrors.unsupported(`resource embedding or aggregate in select: '${embedding}'`);
  return items.map((item): SelectItem => {
    if (item.startsWith('...')) throw restErrors.unsupported(`spread in select: '${item}'`);
    // `*` beside other fields, as in `*,created_ago` (a computed field).
    if (item === '*') return { column: '*', path: [] };
    const aliased = item.match(new RegExp(String.raw`^(${quotedName}|[^:"]+):(?!:)`));
    const alias = aliased?.[1];
    const [head = '', cast, ...more] = item.slice(aliased ? aliased[0].length : 0).split('::');
    if (head === '' || more.length) throw restErrors.parse('Unsupported select item', `'${item}'`);
    return {
      ...wholeField(head, 'column in select'),
      alias: alias === undefined ? undefined : columnName(alias, 'alias in select'),
      cast: cast === undefined ? undefined : checkIdentifier(cast, 'cast in select'),
    };
  });
}

/** `op.value` or `not.op.value`, as in `?amount=gte.10`, `?tags=ov.{a,b}`, `?name=like(any).{a*,b*}`. */
function parseOperation(field: Field, text: string): Condition {
  const shown = text;
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const head = rest.match(/^([a-z]+)(?:\(([^)]*)\))?(?:\.|$)/);
  const operator = head?.[1] ?? rest.split('.')[0] ?? '';
  const argument = head?.[2];
  const raw = head ? rest.slice(head[0].length) : '';
  if (!filterOperators.has(operator)) {
    throw restErrors.parse(
      `"failed to parse filter (${shown})" (line 1, column ${negate ? 5 : 1})`,
      `unexpected "${operator.charAt(0) || rest.charAt(0)}" expecting "not" or operator (eq, gt, ...)`,
    );
  }
  const condition: FilterCondition = {
    kind: 'filter',
    ...field,
    negate,
    operator: operator as FilterOperator,
    value: raw,
  };
  if (argument !== undefined) {
    if ((fullText as readonly string[]).includes(operator)) condition.language = argument;
    else if (
      (quantifiable as readonly string[]).includes(operator) &&
      (argument === 'any' || argument === 'all')
    )
      condition.quantifier = argument;
    else throw restErrors.parse(`"failed to parse filter (${shown})"`, `unexpected "(" after ${operator}`);
  }
  if (operator === 'in') {
    const list = raw.match(/^\((.*)\)$/s);
    if (!list)
      throw restErrors.parse(
        'Invalid in filter',
        `Expected in.(a,b,...) for '${field.column}', got '${raw}'`,
      );
    condition.value = list[1] === '' ? [] : splitTopLevel(list[1] ?? '').map((item) => unquote(item.trim()));
  }
  if (operator === 'is' && !isValues.has(raw.toLowerCase())) {
    throw restErrors.parse(
      'Invalid is filter',
      `'${raw}' is not one of null, not_null, true, false, unknown`,
    );
  }
  return condition;
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
    const { field, rest } = readField(item, 'filter column');
    if (!rest.startsWith('.')) throw restErrors.parse(`Invalid ${kind} filter`, `'${item}'`);
    // A quoted value stands for itself (QueryParams.hs `pLogicSingleVal`): `name.eq."a,b"`.
    const condition = parseOperation(field, rest.slice(1));
    if (condition.kind === 'filter' && typeof condition.value === 'string')
      condition.value = unquote(condition.value);
    return condition;
  });
  return { kind, negate, conditions };
}

function parseOrder(text: string): OrderTerm[] {
  return splitTopLevel(text).map((term) => {
    const { field, rest } = readField(term.trim(), 'order column');
    const order: OrderTerm = { ...field, descending: false };
    for (const modifier of rest.split('.').slice(1)) {
      if (modifier === 'asc' || modifier === 'desc') order.descending = modifier === 'desc';
      else if (modifier === 'nullsfirst' || modifier === 'nullslast')
        order.nulls = modifier === 'nullsfirst' ? 'first' : 'last';
      else throw restErrors.parse('Invalid order', `Unknown order modifier '${modifier}' in '${term}'`);
    }
    if (rest !== '' && !rest.startsWith('.')) throw restErrors.parse('Invalid order', `'${term}'`);
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
    } else {
      const { field, rest } = readField(key, 'filter column');
      if (rest.startsWith('.')) throw restErrors.unsupported(`filter on embedded resource: '${key}'`);
      if (rest !== '') throw restErrors.parse('Unsupported filter column', `'${key}'`);
      query.where.push(parseOperation(field, value));
    }
  }
  return query;
}

/** Every column a condition tree mentions, for validation against the catalogue. */
export function conditionColumns(conditions: Condition[]): string[] {
  return conditions.flatMap((condition) =>
    condition.kind === 'filter' ? [condition.column] : conditionColumns(condition.conditions),
  );
}
