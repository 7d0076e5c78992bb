import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import { BodyTooLargeError, headerValue, readBody } from '../http';
import type { VerifiedClaims } from '../jwt';
import { runAsCaller, type Caller } from './caller';
import { loadCatalog, matchRoutine, type Catalog, type Relation, type Routine } from './catalog';
import { RestError, restErrorFromPg, restErrors } from './errors';
import { conditionColumns, parseQuery, type ParsedQuery, type SelectItem } from './query-grammar';
import { quoteIdent, readSql, representationSql, selectListSql, SqlParams, whereSql } from './sql';

export interface RestOptions {
  /** Pool connecting as `authenticator`, which may switch to the three API roles only. */
  pool: pg.Pool;
  /** A superuser or owner connection for reading the catalogue. */
  catalogPool: pg.Pool;
  maxBodyBytes: number;
  /** `[api] max_rows`: no read (table or set-returning function) answers more rows. */
  maxRows: number;
}

interface Preferences {
  returnRepresentation: boolean;
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missingDefault: boolean;
  rollback: boolean;
  maxAffected?: number;
}

/** Every preference PostgREST knows (ApiRequest/Preferences.hs); others are ignored unless strict. */
const knownPreference =
  /^(return=(representation|minimal|headers-only)|count=(exact|planned|estimated)|resolution=(merge|ignore)-duplicates|missing=(default|null)|tx=(commit|rollback)|handling=(strict|lenient)|max-affected=\d+|timezone=.+)$/;

function parsePreferences(request: IncomingMessage): Preferences {
  const tokens = (headerValue(request, 'prefer') ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean);
  const preferences: Preferences = {
    returnRepresentation: false,
    missingDefault: false,
    rollback: false,
  };
  let maxAffected: number | undefined;
  for (const token of tokens) {
    if (token === 'return=representation') preferences.returnRepresentation = true;
    else if (/^count=(exact|planned|estimated)$/.test(token)) {
      preferences.count = token.slice('count='.length) as Preferences['count'];
    } else if (token === 'resolution=merge-duplicates' || token === 'resolution=ignore-duplicates') {
      preferences.resolution = token.slice('resolution='.length) as Preferences['resolution'];
    } else if (token === 'missing=default') preferences.missingDefault = true;
    else if (token === 'tx=rollback') preferences.rollback = true;
    else if (/^max-affected=\d+$/.test(token)) maxAffected = Number(token.split('=')[1]);
  }
  if (tokens.includes('handling=strict')) {
    const invalid = tokens.filter((token) => !knownPreference.test(token));
    if (invalid.length) {
      throw new RestError(
        400,
        'PGRST122',
        'Invalid preferences given with handling=strict',
        `Invalid preferences: ${invalid.join(', ')}`,
      );
    }
    preferences.maxAffected = maxAffected;
  }
  return preferences;
}

/** `Accept: application/vnd.pgrst.object+json` asks for exactly one row as an object. */
function wantsSingleObject(request: IncomingMessage): boolean {
  const accept = headerValue(request, 'accept') ?? '';
  if (accept.includes('nulls=stripped')) throw restErrors.unsupported(`Accept: ${accept}`);
  if (accept.includes('application/vnd.pgrst.object+json')) return true;
  const supported = ['application/json', 'application/vnd.pgrst.array+json', '*/*', ''];
  const types = accept.split(',').map((type) => (type.split(';')[0] ?? '').trim());
  if (!types.some((type) => supported.includes(type))) throw restErrors.mediaType(accept);
  return false;
}

function checkSchema(request: IncomingMessage) {
  for (const header of ['accept-profile', 'content-profile']) {
    const schema = headerValue(request, header);
    if (schema && schema !== 'public') throw restErrors.schema();
  }
}

interface StatementResult {
  body: string | null;
  rows: number;
  total: number | null;
  /** Upserts: how many of the rows were inserted rather than updated. */
  inserted?: number;
}

async function readJson(request: IncomingMessage, limit: number): Promise<unknown> {
  let raw: string;
  try {
    raw = (await readBody(request, limit)).toString('utf8');
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw restErrors.bodyTooLarge(limit);
    throw error;
  }
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw restErrors.invalidBody(error instanceof Error ? error.message : 'invalid JSON');
  }
}

/**
 * PostgREST over the real database: each request is one transaction as the caller's role with the
 * caller's claims, so row-level security in Postgres decides what anyone may read or write.
 */
export function createRestHandler(options: RestOptions) {
  const { pool, maxBodyBytes, maxRows } = options;
  let catalog: Catalog | undefined;
  let catalogLoadedAt = 0;

  async function currentCatalog(): Promise<Catalog> {
    if (!catalog) {
      catalog = await loadCatalog(options.catalogPool);
      catalogLoadedAt = Date.now();
    }
    return catalog;
  }

  /** A name the cache does not know may be new (a migration since start): reload at most once a second. */
  async function refreshedCatalog(): Promise<Catalog> {
    if (Date.now() - catalogLoadedAt > 1000) catalog = undefined;
    return currentCatalog();
  }

  async function relationNamed(name: string): Promise<Relation> {
    const relation =
      (await currentCatalog()).relations.get(name) ?? (await refreshedCatalog()).relations.get(name);
    if (!relation) throw restErrors.unknownTable(name);
    return relation;
  }

  function checkColumns(relation: Relation, columns: string[]) {
    for (const column of columns)
      if (!relation.columns.has(column)) throw restErrors.unknownColumn(relation.name, column);
  }

  function checkQueryColumns(relation: Relation, query: ParsedQuery) {
    checkColumns(relation, [
      ...(query.select ?? []).map((item) => item.column),
      ...conditionColumns(query.where),
      ...query.order.map((term) => term.column),
    ]);
  }

  function callerOf(claims: VerifiedClaims, request: IncomingMessage): Caller {
    return {
      role: claims.role,
      claims: JSON.stringify(claims),
      method: request.method ?? 'GET',
      path: request.url ?? '',
    };
  }

  async function runStatement(
    client: pg.PoolClient,
    sql: string,
    params: SqlParams,
  ): Promise<StatementResult> {
    const result = await client.query<{
      body: string | null;
      rows: string;
      total: string | null;
      inserted?: string;
    }>(sql, params.values);
    const row = result.rows[0];
    if (!row) return { body: null, rows: result.rowCount ?? 0, total: null };
    return {
      body: row.body,
      rows: Number(row.rows),
      total: row.total === null ? null : Number(row.total),
      ...(row.inserted === undefined ? {} : { inserted: Number(row.inserted) }),
    };
  }

  function checkSingle(single: boolean, result: StatementResult) {
    if (single && result.rows !== 1) throw restErrors.notSingleObject(result.rows);
  }

  function checkMaxAffected(preferences: Preferences, result: StatementResult) {
    if (preferences.maxAffected !== undefined && result.rows > preferences.maxAffected) {
      throw restErrors.maxAffected(result.rows, preferences.maxAffected);
    }
  }

  function sendResult(
    response: ServerResponse,
    status: number,
    result: StatementResult,
    { single, withBody, range }: { single: boolean; withBody: boolean; range?: { offset: number } },
  ) {
    const headers: Record<string, string> = {};
    if (range) {
      const last = range.offset + result.rows - 1;
      const span = result.rows > 0 ? `${range.offset}-${last}` : '*';
      headers['Content-Range'] = `${span}/${result.total ?? '*'}`;
    } else {
      // Writes (PostgREST's Response.hs): no range, the affected count when counted.
      headers['Content-Range'] = `*/${result.total ?? '*'}`;
    }
    if (!withBody || result.body === null) {
      response.writeHead(status === 200 && result.body === null ? 204 : status, headers);
      return response.end();
    }
    let payload = result.body;
    if (single) payload = JSON.stringify((JSON.parse(payload) as unknown[])[0]);
    headers['Content-Type'] = single
      ? 'application/vnd.pgrst.object+json; charset=utf-8'
      : 'application/json; charset=utf-8';
    headers['Content-Length'] = String(Buffer.byteLength(payload));
    response.writeHead(status, headers);
    response.end(payload);
  }

  function rangeFromHeader(request: IncomingMessage, query: ParsedQuery) {
    const range = headerValue(request, 'range')?.match(/^(?:items=)?(\d+)-(\d*)$/);
    if (!range) return;
    const from = Number(range[1]);
    const to = range[2] ? Number(range[2]) : undefined;
    query.offset = from;
    if (to !== undefined) query.limit = Math.min(query.limit ?? Infinity, to - from + 1);
  }

  /** PostgREST's `db-max-rows`: the page asked for, cut to `max_rows` (count and Content-Range still tell). */
  function boundByMaxRows(query: ParsedQuery) {
    query.limit = Math.min(query.limit ?? maxRows, maxRows);
  }

  /**
   * PostgREST's `rangeStatus` (Query/RangeQuery.hs, Response.hs): with a known total, an offset past it is
   * 416 PGRST103; a page short of the total is 206.
   */
  function readStatus(query: ParsedQuery, result: StatementResult): number {
    const offset = query.offset ?? 0;
    if (result.total === null) return 200;
    if (offset > result.total) {
      throw new RestError(
        416,
        'PGRST103',
        'Requested range not satisfiable',
        `An offset of ${offset} was requested, but there are only ${result.total} rows.`,
      );
    }
    return result.rows < result.total ? 206 : 200;
  }

  /**
   * `count=planned` is the planner's row estimate of the unpaged read (EXPLAIN); `count=estimated` the
   * exact count up to `max_rows`, the estimate beyond it (PostgREST's Query.hs).
   */
  async function countAsPreferred(
    client: pg.PoolClient,
    preferences: Preferences,
    source: string,
    query: ParsedQuery,
    exact: number | null,
  ): Promise<number | null> {
    if (preferences.count === 'exact' || preferences.count === undefined) return exact;
    if (preferences.count === 'estimated' && exact !== null && exact <= maxRows) return exact;
    const params = new SqlParams();
    const plan = await client.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
      `explain (format json) select 1 from ${source}${whereSql(query.where, params)}`,
      params.values,
    );
    return plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0;
  }

  async function read(
    request: IncomingMessage,
    response: ServerResponse,
    claims: VerifiedClaims,
    relation: Relation,
    query: ParsedQuery,
  ) {
    const single = wantsSingleObject(request);
    const preferences = parsePreferences(request);
    rangeFromHeader(request, query);
    boundByMaxRows(query);
    const params = new SqlParams();
    const source = `public.${quoteIdent(relation.name)}`;
    const sql = readSql(source, query, params, {
      withTotal: preferences.count === 'exact' || preferences.count === 'estimated',
    });
    // The planner's estimate needs a second statement in the caller's transaction, which a read's
    // pipelined commit would have closed: such a read runs unpipelined and is rolled back.
    const planned = preferences.count === 'planned' || preferences.count === 'estimated';
    const mode = planned ? { mode: 'write' as const, rollback: true } : { mode: 'read' as const };
    const result = await runAsCaller(pool, callerOf(claims, request), mode, async (client) => {
      const outcome = await runStatement(client, sql, params);
      checkSingle(single, outcome);
      return { ...outcome, total: await countAsPreferred(client, preferences, source, query, outcome.total) };
    });
    sendResult(response, readStatus(query, result), result, {
      single,
      withBody: request.method !== 'HEAD',
      range: { offset: query.offset ?? 0 },
    });
  }

  function rowsOf(body: unknown, allowArray: boolean): Record<string, unknown>[] {
    const rows = Array.isArray(body) && allowArray ? body : [body];
    for (const row of rows) {
      if (!row || typeof row !== 'object' || Array.isArray(row)) {
        throw restErrors.invalidBody(
          allowArray ? 'Expected a JSON object or an array of objects' : 'Expected a JSON object',
        );
      }
    }
    return rows as Record<string, unknown>[];
  }

  async function write(
    request: IncomingMessage,
    response: ServerResponse,
    claims: VerifiedClaims,
    relation: Relation,
    query: ParsedQuery,
  ) {
    const method = request.method ?? 'POST';
    const single = wantsSingleObject(request);
    const preferences = parsePreferences(request);
    if (query.limit !== undefined || query.offset !== undefined || query.order.length) {
      throw restErrors.unsupported(`limit, offset or order on ${method}`);
    }
    const table = `public.${quoteIdent(relation.name)}`;
    const params = new SqlParams();
    let mutation: string;
    if (method === 'DELETE') {
      checkQueryColumns(relation, query);
      mutation = `delete from ${table}${whereSql(query.where, params)}`;
    } else {
      const rows = rowsOf(await readJson(request, maxBodyBytes), method === 'POST');
      const columns = query.columns ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
      for (const column of columns)
        if (!relation.columns.has(column)) throw restErrors.unknownInsertColumn(relation.name, column);
      checkQueryColumns(relation, query);
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
    const sql = preferences.resolution
      ? upsertSql(mutation, query.select ?? [...relation.columns].map((column) => ({ column })), withBody)
      : withBody
        ? representationSql(mutation, query.select)
        : mutation;
    const result = await runAsCaller(
      pool,
      callerOf(claims, request),
      { mode: 'write', rollback: preferences.rollback },
      async (client) => {
        const outcome = await runStatement(client, sql, params);
        checkSingle(single && withBody, outcome);
        // PostgREST applies max-affected to updates and deletes only; an insert ignores it.
        if (method !== 'POST') checkMaxAffected(preferences, outcome);
        return { ...outcome, total: preferences.count ? outcome.rows : null };
      },
    );
    // An upsert that inserted nothing (every row merged or ignored) is 200, as PostgREST's Response.hs.
    const created = method === 'POST' && (result.inserted === undefined || result.inserted > 0);
    sendResult(response, created ? 201 : method === 'POST' || withBody ? 200 : 204, result, {
      single,
      withBody,
    });
  }

  /**
   * An upsert that also counts the rows it inserted (`xmax = 0` on a row the statement created), shown
   * with the selected (or every) column and without the marker.
   */
  function upsertSql(mutation: string, shown: SelectItem[], withBody: boolean): string {
    const body = withBody ? `coalesce((select json_agg(_shown) from _shown), '[]')::text` : 'null::text';
    return (
      `with _mutated as (${mutation} returning *, (xmax = 0) as pgrst_inserted), ` +
      `_shown as (select ${selectListSql(shown)} from _mutated) ` +
      `select ${body} as body, (select count(*) from _mutated) as rows, null::bigint as total, ` +
      `(select count(*) from _mutated where pgrst_inserted) as inserted`
    );
  }

  function routineArguments(routine: Routine, given: Record<string, unknown>) {
    return routine.arguments.filter((argument) => argument.name in given);
  }

  async function callRoutine(
    request: IncomingMessage,
    response: ServerResponse,
    claims: VerifiedClaims,
    name: string,
    url: URL,
  ) {
    const method = request.method ?? 'POST';
    const candidates =
      (await currentCatalog()).routines.get(name) ?? (await refreshedCatalog()).routines.get(name) ?? [];
    const argumentNames = new Set(
      candidates.flatMap((routine) => routine.arguments.map((argument) => argument.name)),
    );
    let given: Record<string, unknown>;
    const filterParams = new URLSearchParams();
    if (method === 'POST') {
      const body = await readJson(request, maxBodyBytes);
      if (!body || typeof body !== 'object' || Array.isArray(body))
        throw restErrors.invalidBody('Expected a JSON object of arguments');
      given = body as Record<string, unknown>;
      url.searchParams.forEach((value, key) => filterParams.append(key, value));
    } else {
      given = {};
      url.searchParams.forEach((value, key) => {
        if (argumentNames.has(key)) given[key] = value;
        else filterParams.append(key, value);
      });
    }
    const routine = matchRoutine(candidates, Object.keys(given));
    if (!routine) throw restErrors.unknownFunction(name, Object.keys(given));
    const query = parseQuery(filterParams);
    const single = wantsSingleObject(request);
    const preferences = parsePreferences(request);
    const params = new SqlParams();
    const passed = routineArguments(routine, given);
    const call = `public.${quoteIdent(routine.name)}(${passed.map((argument) => `${quoteIdent(argument.name)} => _args.${quoteIdent(argument.name)}`).join(', ')})`;
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
    let sql: string;
    if (shaped) {
      boundByMaxRows(query);
      const source = `(select _fn.* from ${argumentSource ? `${argumentSource} cross join lateral ` : ''}${call} as _fn) _src`;
      sql = readSql(source, query, params, { withTotal: preferences.count !== undefined });
    } else {
      const from = argumentSource ? ` from ${argumentSource}` : '';
      // A void result is evaluated (it may raise) and answered as no content.
      const body = routine.returnsVoid
        ? `(case when ${call} is null then null end)::text`
        : `coalesce(to_json(${call})::text, 'null')`;
      sql = `select ${body} as body, 1 as rows, null::bigint as total${from}`;
    }
    const readOnly = method === 'GET' || method === 'HEAD';
    const result = await runAsCaller(
      pool,
      callerOf(claims, request),
      { mode: readOnly ? 'read' : 'write', rollback: preferences.rollback },
      async (client) => {
        const outcome = await runStatement(client, sql, params);
        if (shaped) checkSingle(single, outcome);
        // On a call the rows it answers count (PostgREST 12.2); over the limit, its writes roll back.
        checkMaxAffected(preferences, outcome);
        return outcome;
      },
    );
    const unwrap = shaped && (single || !routine.returnsSet);
    // Calls answer with a range too, as PostgREST's: `0-0/*` for a scalar, the page for a set.
    sendResult(response, readStatus(query, result), result, {
      single: unwrap,
      withBody: method !== 'HEAD',
      range: { offset: query.offset ?? 0 },
    });
  }

  async function route(
    request: IncomingMessage,
    response: ServerResponse,
    claims: VerifiedClaims,
    path: string,
    url: URL,
  ) {
    checkSchema(request);
    const method = request.method ?? 'GET';
    const rpc = path.match(/^\/rpc\/([A-Za-z_][A-Za-z0-9_]*)$/);
    if (rpc) {
      if (!['GET', 'HEAD', 'POST'].includes(method)) throw restErrors.method(method);
      return callRoutine(request, response, claims, rpc[1] ?? '', url);
    }
    const table = path.match(/^\/([A-Za-z_][A-Za-z0-9_]*)$/);
    if (!table) throw restErrors.unsupported(`path '${path}'`);
    const relation = await relationNamed(table[1] ?? '');
    const query = parseQuery(url.searchParams);
    if (method === 'GET' || method === 'HEAD') {
      checkQueryColumns(relation, query);
      return read(request, response, claims, relation, query);
    }
    if (method === 'POST' || method === 'PATCH' || method === 'DELETE')
      return write(request, response, claims, relation, query);
    throw restErrors.method(method);
  }

  return async function handleRest(
    request: IncomingMessage,
    response: ServerResponse,
    claims: VerifiedClaims,
    path: string,
    url: URL,
  ) {
    try {
      await route(request, response, claims, path, url);
    } catch (error) {
      const restError = error instanceof RestError ? error : restErrorFromPg(error, claims.role !== 'anon');
      if (!restError) throw error;
      const payload = JSON.stringify(restError.body());
      response.writeHead(restError.status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(payload),
      });
      response.end(payload);
    }
  };
}
