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

/**
 * `alias:name!hint!inner(…)` in select: another table read along a relationship (PostgREST's
 * `SelectRelation`; `...name(…)` spreads a to-one table's fields into the row).
 */
export interface EmbedItem {
  name: string;
  alias?: string;
  hint?: string;
  join?: 'inner' | 'left';
  spread: boolean;
  /** Its columns: `undefined` is `*`; `[]` with no embeds is `name()`, embedded for filtering only. */
  select?: SelectItem[];
  embeds: EmbedItem[];
}

/** The filters, order and page of one level: the request's table, or an embedded one. */
export interface Level {
  where: Condition[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
}

export interface ParsedQuery extends Level {
  /** `undefined` means `*`. */
  select?: SelectItem[];
  embeds: EmbedItem[];
  /** The levels of embedded tables by their path of names or aliases (`messages`, `messages.channels`). */
  nested: Map<string, Level>;
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

const aggregate = /(^|[.:])count\(\)|\.(sum|avg|count|max|min)\(\)/;
const embedHead = new RegExp(
  String.raw`^(?:(${quotedName}|[^:"(!.]+):(?!:))?(\.\.\.)?(${quotedName}|[^:"(!.]+)((?:!(?:${quotedName}|[^!(]+))*)\((.*)\)$`,
  's',
);

function parseEmbed(item: string): EmbedItem {
  const head = item.match(embedHead);
  if (!head) throw restErrors.parse('Unsupported select item', `'${item}'`);
  const [, alias, spread, name = '', modifiers = '', inner = ''] = head;
  const embed: EmbedItem = {
    name: columnName(name.trim(), 'embedded resource'),
    alias: alias === undefined ? undefined : columnName(alias.trim(), 'alias in select'),
    spread: spread !== undefined,
    embeds: [],
  };
  for (const modifier of modifiers.split('!').slice(1)) {
    if (modifier === 'inner' || modifier === 'left') embed.join = modifier;
    else embed.hint = unquote(modifier);
  }
  if (embed.spread && embed.alias !== undefined)
    throw restErrors.parse('Unsupported select item', `a spread cannot be aliased: '${item}'`);
  if (inner.trim() === '') embed.select = [];
  else Object.assign(embed, parseSelectList(inner));
  return embed;
}

function parseSelectList(text: string): { select?: SelectItem[]; embeds: EmbedItem[] } {
  const items = splitTopLevel(text).map((item) => item.trim());
  const aggregated = items.find((item) => aggregate.test(item));
  if (aggregated) throw restErrors.unsupported(`aggregate in select: '${aggregated}'`);
  const embedItems = items.filter((item) => item.includes('(') && !/^".*"$/.test(item));
  const columns = items.filter((item) => !embedItems.includes(item));
  const embeds = embedItems.map(parseEmbed);
  // Only embeds (`select=messages(*)`) selects no column of the table itself, as PostgREST.
  if (columns.length === 1 && columns[0] === '*') return { select: undefined, embeds };
  return {
    select: columns.map((item): SelectItem => {
      if (item.startsWith('...')) throw restErrors.parse('Unsupported select item', `'${item}'`);
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
    }),
    embeds,
  };
}

export function parseSelect(text: string): SelectItem[] | undefined {
  return parseSelectList(text).select;
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
/** The level a dotted key is for: the request's table, or an embedded one by its path. */
function levelOf(query: ParsedQuery, path: string[]): Level {
  if (!path.length) return query;
  const key = path.join('.');
  let level = query.nested.get(key);
  if (!level) {
    level = { where: [], order: [] };
    query.nested.set(key, level);
  }
  return level;
}

/** PostgREST's URL grammar (ApiRequest/QueryParams.hs); anything else is a 400 naming the part. */
export function parseQuery(params: URLSearchParams): ParsedQuery {
  const query: ParsedQuery = { where: [], order: [], embeds: [], nested: new Map() };
  for (const [key, value] of params) {
    if (key === 'select') Object.assign(query, parseSelectList(value));
    else if (key === 'on_conflict') query.onConflict = parseColumnList('on_conflict', value);
    else if (key === 'columns') query.columns = parseColumnList('columns', value);
    else if (key === 'apikey') continue;
    else {
      // `messages.channels.order`: the path of embedded names, then what it sets there.
      const reserved = key.match(/^(?:(.+)\.)?(order|limit|offset|and|or)$/);
      if (reserved) {
        let path = reserved[1]?.split('.') ?? [];
        let what = reserved[2] ?? '';
        if (path.at(-1) === 'not' && (what === 'and' || what === 'or')) {
          path = path.slice(0, -1);
          what = `not.${what}`;
        }
        const level = levelOf(query, path);
        if (what === 'order') level.order.push(...parseOrder(value));
        else if (what === 'limit') level.limit = nonNegativeInteger('limit', value);
        else if (what === 'offset') level.offset = nonNegativeInteger('offset', value);
        else
          level.where.push(parseLogical(what.endsWith('or') ? 'or' : 'and', what.startsWith('not.'), value));
        continue;
      }
      const { field, rest } = readField(key, 'filter column');
      if (rest !== '' && !rest.startsWith('.'))
        throw restErrors.parse('Unsupported filter column', `'${key}'`);
      if (rest === '') {
        query.where.push(parseOperation(field, value));
        continue;
      }
      // An embedded table's filter: every segment but the last names a level.
      const segments = [field.column, ...rest.slice(1).split('.')];
      const last = segments.pop() ?? '';
      levelOf(query, segments).where.push(parseOperation(wholeField(last, 'filter column'), value));
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
