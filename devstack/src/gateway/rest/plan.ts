import type { Relation, Routine } from './catalog';
import { restErrors } from './errors';
import { conditionColumns, type ParsedQuery, type SelectItem } from './query-grammar';
import type { Preferences } from './request';
import {
  bodySql,
  quoteIdent,
  readSql,
  representationSql,
  selectListSql,
  type BodyFormat,
  type Joins,
  type SqlParams,
  whereSql,
} from './sql';

/** Checking a parsed request against the schema cache and building its SQL. */

/** `qualifier`: how Postgres names the relation in its error (an embedded table's alias). */
function checkColumns(relation: Relation, columns: string[], qualifier = relation.name) {
  for (const column of columns)
    if (!relation.columns.has(column)) throw restErrors.unknownColumn(qualifier, column);
}

/**
 * The fields a read or write names, checked against the schema cache. A read may name computed fields
 * (PostgREST's, functions of the row) and `*` beside them; a write's filters and representation only columns.
 */
export function checkQueryColumns(
  relation: Relation,
  query: Pick<ParsedQuery, 'select' | 'where' | 'order'>,
  { write, qualifier }: { write: boolean; qualifier?: string },
) {
  const named = [
    ...(query.select ?? []).map((item) => item.column),
    ...conditionColumns(query.where),
    ...query.order.map((term) => term.column),
  ];
  for (const field of named) {
    if (field === '*' && !write) continue;
    if (relation.computed.has(field) && !relation.columns.has(field)) {
      if (write) throw restErrors.unsupported(`computed field '${field}' in a write`);
      continue;
    }
    if (field === '*') throw restErrors.unsupported("'*' beside other fields in a write's select");
    checkColumns(relation, [field], qualifier);
  }
}

/** PostgREST's `db-max-rows`: the page asked for, cut to `max_rows` (count and Content-Range still tell). */
export function boundByMaxRows(query: ParsedQuery, maxRows: number) {
  query.limit = Math.min(query.limit ?? maxRows, maxRows);
}

/**
 * An upsert that also counts the rows it inserted (`xmax = 0` on a row the statement created), shown
 * with the selected (or every) column and without the marker.
 */
function upsertSql(
  mutation: string,
  shown: SelectItem[],
  params: SqlParams,
  format: BodyFormat | undefined,
): string {
  const body = format ? `(select ${bodySql(format)} from _page _row)` : 'null::text';
  return (
    `with _mutated as (${mutation} returning *, (xmax = 0) as pgrst_inserted), ` +
    `_page as (select ${selectListSql(shown, params)} from _mutated) ` +
    `select ${body} as body, (select count(*) from _mutated) as rows, null::bigint as total, ` +
    `(select count(*) from _mutated where pgrst_inserted) as inserted`
  );
}

function routineArguments(routine: Routine, given: Record<string, unknown>) {
  return routine.arguments.filter((argument) => argument.name in given);
}

/**
 * The statement of a write: `DELETE`, `PATCH` (the first row) or `POST` (insert or upsert), returning the
 * rows when asked (`Prefer: return=representation`).
 */
export function writeSql({
  method,
  relation,
  query,
  preferences,
  rows,
  params,
  format,
}: {
  method: string;
  relation: Relation;
  query: ParsedQuery;
  preferences: Preferences;
  rows: Record<string, unknown>[];
  params: SqlParams;
  format: BodyFormat;
}): string {
  const table = `${quoteIdent(relation.schema)}.${quoteIdent(relation.name)}`;
  let mutation: string;
  if (method === 'DELETE') {
    checkQueryColumns(relation, query, { write: true });
    mutation = `delete from ${table}${whereSql(query.where, params)}`;
  } else {
    const columns = query.columns ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
    for (const column of columns)
      if (!relation.columns.has(column)) throw restErrors.unknownInsertColumn(relation.name, column);
    checkQueryColumns(relation, query, { write: true });
    const quoted = columns.map(quoteIdent);
    if (method === 'PATCH') {
      if (!columns.length) throw restErrors.invalidBody('Nothing to update: the body has no columns');
      const body = params.add(JSON.stringify(rows[0]));
      // A row sub-select keeps the body's columns out of the WHERE clause's scope.
      mutation = `update ${table} set (${quoted.join(', ')}) = (select ${quoted.join(', ')} from json_populate_record(null::${table}, ${body}::json))${whereSql(query.where, params)}`;
    } else {
      if (query.where.length) throw restErrors.unsupported('filters on insert');
      if (preferences.missingDefault && rows.some((row) => columns.some((column) => !(column in row)))) {
        throw restErrors.unsupported('Prefer: missing=default with rows that lack some columns');
      }
      const body = params.add(JSON.stringify(rows));
      mutation = columns.length
        ? `insert into ${table} (${quoted.join(', ')}) select ${quoted.join(', ')} from json_populate_recordset(null::${table}, ${body}::json)`
        : `insert into ${table} select from json_populate_recordset(null::${table}, ${body}::json)`;
      if (preferences.resolution) {
        const target = query.onConflict ?? relation.primaryKey;
        checkColumns(relation, target);
        if (!target.length)
          throw restErrors.unsupported(`upsert on '${relation.name}' without on_conflict or primary key`);
        // A body of only the conflict columns still updates (the row is rewritten, its triggers fire),
        // as PostgREST sets every given column from EXCLUDED (Query/QueryBuilder.hs).
        const updates = quoted.filter((column) => !target.map(quoteIdent).includes(column));
        const assigned = updates.length ? updates : quoted;
        const action =
          preferences.resolution === 'ignore-duplicates' || !assigned.length
            ? 'do nothing'
            : `do update set ${assigned.map((column) => `${column} = excluded.${column}`).join(', ')}`;
        mutation += ` on conflict (${target.map(quoteIdent).join(', ')}) ${action}`;
      }
    }
  }
  const withBody = preferences.returnRepresentation;
  return preferences.resolution
    ? upsertSql(
        mutation,
        query.select ?? [...relation.columns].map((column) => ({ column, path: [] })),
        params,
        withBody ? format : undefined,
      )
    : withBody
      ? representationSql(mutation, query.select, params, format)
      : mutation;
}

/** A function call as asked: the function found for the arguments given. */
export interface RoutineCall {
  name: string;
  routine: Routine;
  given: Record<string, unknown>;
  /** The whole body, for a function of one unnamed argument. */
  rawArgument: Buffer | string | undefined;
}

/** How a call's result is read: the query on its rows, the caller's preferences, the answer's format. */
export interface CallResultRead {
  query: ParsedQuery;
  preferences: Preferences;
  params: SqlParams;
  maxRows: number;
  format: BodyFormat;
  /** The computed fields of the relation whose rows the function returns (`routine.returnsRelation`). */
  computed: ReadonlySet<string>;
  /** That relation's column types (for JSON paths and full-text search on its columns). */
  types?: ReadonlyMap<string, string>;
  /** Embedded tables of its rows (a function returning a table's rows). */
  joins?: Joins;
}

/**
 * The statement of a call: a set or row result read like a table (select, filters, order, page), a
 * scalar as one JSON value, `void` as no content.
 */
export function callSql(
  { name, routine, given, rawArgument }: RoutineCall,
  { query, preferences, params, maxRows, format, computed, types, joins }: CallResultRead,
): { sql: string; shaped: boolean } {
  const func = `${quoteIdent(routine.schema)}.${quoteIdent(routine.name)}`;
  const passed = rawArgument === undefined ? routineArguments(routine, given) : [];
  const call =
    rawArgument === undefined
      ? `${func}(${passed.map((argument) => `${quoteIdent(argument.name)} => _args.${quoteIdent(argument.name)}`).join(', ')})`
      : `${func}(${params.add(rawArgument)}::${routine.arguments[0]?.type})`;
  const argumentSource = passed.length
    ? `json_to_record(${params.add(JSON.stringify(given))}::json) as _args(${passed.map((argument) => `${quoteIdent(argument.name)} ${argument.type}`).join(', ')})`
    : '';
  const shaped = routine.returnsSet || routine.returnsRows;
  const hasQuery =
    query.select ||
    query.where.length ||
    query.order.length ||
    query.limit !== undefined ||
    query.offset !== undefined;
  if (!shaped && hasQuery)
    throw restErrors.unsupported(`select, filters or order on the scalar function '${name}'`);
  if (!shaped && format === 'csv')
    throw restErrors.unsupportedMedia(`CSV from the scalar function '${name}'`);
  let sql: string;
  if (shaped) {
    boundByMaxRows(query, maxRows);
    const source = `(select _fn.* from ${argumentSource ? `${argumentSource} cross join lateral ` : ''}${call} as _fn) _src`;
    const scope = routine.returnsRelation
      ? { schema: routine.schema, computed, types, alias: '_src', rowType: routine.returnsRelation }
      : undefined;
    sql = readSql(source, query, params, {
      withTotal: preferences.count !== undefined,
      scope,
      format,
      joins,
    });
  } else {
    const from = argumentSource ? ` from ${argumentSource}` : '';
    // A void result is evaluated (it may raise) and answered as no content.
    const body = routine.returnsVoid
      ? `(case when ${call} is null then null end)::text`
      : `coalesce(to_json(${call})::text, 'null')`;
    // Counted, a scalar is one row (`Content-Range: 0-0/1`), as PostgREST counts a call's result.
    const total = preferences.count ? '1::bigint' : 'null::bigint';
    sql = `select ${body} as body, 1 as rows, ${total} as total${from}`;
  }
  return { sql, shaped };
}
