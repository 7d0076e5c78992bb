import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import type { VerifiedClaims } from '../jwt';
import { runAsCaller } from './caller';
import {
  findRoutine,
  loadCatalog,
  takesRawBody,
  type CallShape,
  type Catalog,
  type Relation,
  type Routine,
} from './catalog';
import { embedsSql } from './embed';
import { RestError, restErrorFromPg, restErrors } from './errors';
import { closestMatch, parameterList } from './fuzzy-hint';
import { callerOf, checkMaxAffected, checkSingle, countAsPreferred, runStatement } from './execute';
import { boundByMaxRows, callSql, checkQueryColumns, writeSql } from './plan';
import { parseQuery, type ParsedQuery } from './query-grammar';
import { headerValue } from '../http';
import {
  acceptedMedia,
  isSingleMedia,
  bodyMedia,
  parseJson,
  parsePreferences,
  profileOf,
  rangeFromHeader,
  readJson,
  readRaw,
  rowsOf,
  type Profile,
} from './request';
import { readStatus, sendRestError, sendResult } from './response';
import { quoteIdent, readSql, SqlParams } from './sql';

/*
 * PostgREST by concern: `request` parses what the request asks for, `plan` checks it against the schema
 * cache and builds the SQL, `execute` runs it as the caller, `response` shapes the answer; this file routes.
 */

export interface RestOptions {
  /** Pool connecting as `authenticator`, which may switch to the three API roles only. */
  pool: pg.Pool;
  /** A superuser or owner connection for reading the catalogue. */
  catalogPool: pg.Pool;
  maxBodyBytes: number;
  /** `[api] max_rows`: no read (table or set-returning function) answers more rows. */
  maxRows: number;
  /** `[api] schemas`: the exposed schemas, the first the default. */
  schemas: string[];
  /** `[api] extra_search_path`: after the request's schema in each transaction's `search_path`. */
  extraSearchPath: string[];
}

const reservedParams = /^(select|order|limit|offset|on_conflict|columns|apikey|(not\.)?(and|or))$/;
const operation =
  /^(not\.)?(eq|neq|gt|gte|lt|lte|like|ilike|match|imatch|in|is|isdistinct|fts|plfts|phfts|wfts|cs|cd|ov|sl|sr|nxr|nxl|adj)(\((any|all)\))?(\([^)]*\))?\./;

/**
 * A GET call's query parameter is an argument unless it is reserved or its value is an operation
 * (`id=eq.1` filters the result), as PostgREST's QueryParams.hs tells them apart.
 */
function isArgumentParam(key: string, value: string): boolean {
  return !reservedParams.test(key) && !operation.test(value);
}

/** A read or write of a table or view: the caller's request and verified claims, the relation, its query. */
interface RelationRequest {
  request: IncomingMessage;
  response: ServerResponse;
  claims: VerifiedClaims;
  relation: Relation;
  query: ParsedQuery;
  profile: Profile;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * PostgREST over the real database: each request is one transaction as the caller's role with the
 * caller's claims, so row-level security in Postgres decides what anyone may read or write.
 */
export function createRestHandler(options: RestOptions) {
  const { pool, maxBodyBytes, maxRows } = options;
  /** One schema cache per exposed schema, loaded when first asked for. */
  const catalogs = new Map<string, { catalog: Catalog; loadedAt: number }>();

  async function currentCatalog(schema: string): Promise<Catalog> {
    let cached = catalogs.get(schema);
    if (!cached) {
      cached = { catalog: await loadCatalog(options.catalogPool, schema), loadedAt: Date.now() };
      catalogs.set(schema, cached);
    }
    return cached.catalog;
  }

  /** A name the cache does not know may be new (a migration since start): reload at most once a second. */
  async function refreshedCatalog(schema: string): Promise<Catalog> {
    if (Date.now() - (catalogs.get(schema)?.loadedAt ?? 0) > 1000) catalogs.delete(schema);
    return currentCatalog(schema);
  }

  async function relationNamed(schema: string, name: string): Promise<Relation> {
    const relation =
      (await currentCatalog(schema)).relations.get(name) ??
      (await refreshedCatalog(schema)).relations.get(name);
    if (!relation) {
      const tables = [...(await currentCatalog(schema)).relations.keys()];
      throw restErrors.unknownTable(schema, name, closestMatch(tables, name, 0.75));
    }
    return relation;
  }

  /** The lateral joins of a read's embedded tables (none without `select=…,other(…)`). */
  async function embeddedJoins(schema: string, relation: Relation, query: ParsedQuery, params: SqlParams) {
    if (!query.embeds.length) return undefined;
    const catalog = await currentCatalog(schema);
    return embedsSql(
      { catalog, schema, params, nested: query.nested, aliases: { next: 1 } },
      { relation, alias: '_src' },
      query.embeds,
    );
  }

  function callerFor(claims: VerifiedClaims, request: IncomingMessage, profile: Profile) {
    return callerOf(claims, request, [profile.schema, ...options.extraSearchPath]);
  }

  async function read({ request, response, claims, relation, query, profile }: RelationRequest) {
    const media = acceptedMedia(request);
    const single = isSingleMedia(media);
    const preferences = parsePreferences(request);
    rangeFromHeader(request, query);
    boundByMaxRows(query, maxRows);
    const params = new SqlParams();
    const source = `${quoteIdent(relation.schema)}.${quoteIdent(relation.name)} _src`;
    const scope = {
      schema: relation.schema,
      computed: relation.computed,
      types: relation.types,
      alias: '_src',
    };
    const joins = await embeddedJoins(profile.schema, relation, query, params);
    const sql = readSql(source, query, params, {
      withTotal: preferences.count === 'exact' || preferences.count === 'estimated',
      scope,
      format: media === 'csv' ? 'csv' : 'json',
      joins,
    });
    // The planner's estimate needs a second statement in the caller's transaction, which a read's
    // pipelined commit would have closed: such a read runs unpipelined and is rolled back.
    const planned = preferences.count === 'planned' || preferences.count === 'estimated';
    const mode = planned ? { mode: 'write' as const, rollback: true } : { mode: 'read' as const };
    const result = await runAsCaller(pool, callerFor(claims, request, profile), mode, async (client) => {
      const outcome = await runStatement(client, sql, params);
      checkSingle(single, outcome);
      return {
        ...outcome,
        total: await countAsPreferred(client, preferences, { source, scope }, query, outcome.total, maxRows),
      };
    });
    sendResult(response, readStatus(query, result), result, {
      media,
      withBody: request.method !== 'HEAD',
      range: { offset: query.offset ?? 0 },
      profile,
    });
  }

  async function write({ request, response, claims, relation, query, profile }: RelationRequest) {
    const method = request.method ?? 'POST';
    const media = acceptedMedia(request);
    const single = isSingleMedia(media);
    const preferences = parsePreferences(request);
    if (query.limit !== undefined || query.offset !== undefined || query.order.length) {
      throw restErrors.unsupported(`limit, offset or order on ${method}`);
    }
    if (query.embeds.length) throw restErrors.unsupported(`resource embedding in the select of a ${method}`);
    const rows = method === 'DELETE' ? [] : rowsOf(await readJson(request, maxBodyBytes), method === 'POST');
    const params = new SqlParams();
    const withBody = preferences.returnRepresentation;
    const format = media === 'csv' ? 'csv' : 'json';
    const sql = writeSql({ method, relation, query, preferences, rows, params, format });
    const result = await runAsCaller(
      pool,
      callerFor(claims, request, profile),
      { mode: 'write', rollback: preferences.rollback },
      async (client) => {
        const outcome = await runStatement(client, sql, params);
        checkSingle(single && withBody, outcome);
        // PostgREST applies max-affected to updates and deletes only; an insert ignores it.
        if (method !== 'POST') checkMaxAffected(preferences, outcome);
        return { ...outcome, total: preferences.count ? outcome.rows : null };
      },
    );
    // A merge that inserted nothing (every row updated) is 200; an insert ignoring duplicates is 201
    // whatever it inserted, as PostgREST's Response.hs.
    const created =
      method === 'POST' && !(preferences.resolution === 'merge-duplicates' && result.inserted === 0);
    sendResult(response, created ? 201 : method === 'POST' || withBody ? 200 : 204, result, {
      media,
      withBody,
      profile,
    });
  }

  /** PostgREST's hint (Error.hs `noRpcHint`): the closest function name, or the closest overload's parameters. */
  async function closestRoutine(schema: string, name: string, overloads: Routine[], shape: CallShape) {
    if (overloads.length === 0)
      return closestMatch([...(await currentCatalog(schema)).routines.keys()], name, 0.75);
    const lists = overloads.map((routine) =>
      parameterList(routine.arguments.map((argument) => argument.name)),
    );
    const closest = closestMatch(lists, parameterList(shape.names), 0.33);
    return closest === undefined ? undefined : `${name}${closest}`;
  }

  async function callRoutine(
    request: IncomingMessage,
    response: ServerResponse,
    claims: VerifiedClaims,
    name: string,
    url: URL,
    profile: Profile,
  ) {
    const method = request.method ?? 'POST';
    const { schema } = profile;
    const candidates =
      (await currentCatalog(schema)).routines.get(name) ??
      (await refreshedCatalog(schema)).routines.get(name) ??
      [];
    const post = method === 'POST';
    const media = post ? bodyMedia(request) : 'json';
    if (media === 'other')
      throw restErrors.unsupported(`Content-Type '${headerValue(request, 'content-type')}' on a call`);
    let given: Record<string, unknown> = {};
    let raw: Buffer | undefined;
    let body: unknown = {};
    const filterParams = new URLSearchParams();
    if (post) {
      raw = await readRaw(request, maxBodyBytes);
      if (media === 'json' && raw.length) body = parseJson(raw.toString('utf8'));
      if (isObject(body)) given = body;
      url.searchParams.forEach((value, key) => filterParams.append(key, value));
    } else {
      url.searchParams.forEach((value, key) => {
        if (isArgumentParam(key, value)) given[key] = value;
        else filterParams.append(key, value);
      });
    }
    const shape = { names: new Set(Object.keys(given)), post, media };
    const routine = findRoutine(candidates, shape);
    if (!routine)
      throw restErrors.unknownFunction(
        schema,
        name,
        shape,
        await closestRoutine(schema, name, candidates, shape),
      );
    // One unnamed argument takes the body itself (PostgREST's `OnePosParam`); named ones a JSON object.
    let rawArgument: Buffer | string | undefined;
    if (takesRawBody(routine)) {
      rawArgument = media === 'bytea' ? raw : raw?.length ? raw.toString('utf8') : JSON.stringify(given);
    } else if (!isObject(body)) throw restErrors.invalidBody('Expected a JSON object of arguments');
    const query = parseQuery(filterParams);
    const responseMedia = acceptedMedia(request);
    const single = isSingleMedia(responseMedia);
    const rowsOfRelation = routine.returnsRelation
      ? (await currentCatalog(schema)).relations.get(routine.returnsRelation)
      : undefined;
    const preferences = parsePreferences(request);
    const params = new SqlParams();
    if (query.embeds.length && !rowsOfRelation)
      throw restErrors.unsupported(`resource embedding on the result of '${name}', not a table's rows`);
    const joins = rowsOfRelation ? await embeddedJoins(schema, rowsOfRelation, query, params) : undefined;
    const { sql, shaped } = callSql(
      { name, routine, given, rawArgument },
      {
        query,
        preferences,
        params,
        maxRows,
        format: responseMedia === 'csv' ? 'csv' : 'json',
        computed: rowsOfRelation?.computed ?? new Set(),
        types: rowsOfRelation?.types,
        joins,
      },
    );
    const readOnly = method === 'GET' || method === 'HEAD';
    const result = await runAsCaller(
      pool,
      callerFor(claims, request, profile),
      { mode: readOnly ? 'read' : 'write', rollback: preferences.rollback },
      async (client) => {
        const outcome = await runStatement(client, sql, params);
        if (shaped) checkSingle(single, outcome);
        // On a call the rows it answers count (PostgREST 12.2); over the limit, its writes roll back.
        checkMaxAffected(preferences, outcome);
        return outcome;
      },
    );
    // A call returning one value (a scalar or one composite row) answers it bare, typed as asked
    // (`application/json`), as PostgREST's `asJsonF` takes `json_agg(…)->0`.
    const unwrap = shaped && (single || !routine.returnsSet);
    // Calls answer with a range too, as PostgREST's: `0-0/*` for a scalar, the page for a set.
    sendResult(response, readStatus(query, result), result, {
      media: responseMedia,
      unwrap,
      withBody: method !== 'HEAD',
      range: { offset: query.offset ?? 0 },
      profile,
    });
  }

  async function route(
    request: IncomingMessage,
    response: ServerResponse,
    claims: VerifiedClaims,
    path: string,
    url: URL,
  ) {
    const profile = profileOf(request, options.schemas);
    const method = request.method ?? 'GET';
    const rpc = path.match(/^\/rpc\/([A-Za-z_][A-Za-z0-9_]*)$/);
    if (rpc) {
      if (!['GET', 'HEAD', 'POST'].includes(method)) throw restErrors.method(method);
      return callRoutine(request, response, claims, rpc[1] ?? '', url, profile);
    }
    const table = path.match(/^\/([A-Za-z_][A-Za-z0-9_]*)$/);
    if (!table) throw restErrors.unsupported(`path '${path}'`);
    const relation = await relationNamed(profile.schema, table[1] ?? '');
    const query = parseQuery(url.searchParams);
    if (method === 'GET' || method === 'HEAD') {
      checkQueryColumns(relation, query, { write: false });
      return read({ request, response, claims, relation, query, profile });
    }
    if (method === 'POST' || method === 'PATCH' || method === 'DELETE')
      return write({ request, response, claims, relation, query, profile });
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
      sendRestError(response, restError);
    }
  };
}
