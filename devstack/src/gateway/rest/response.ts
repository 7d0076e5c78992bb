import type { ServerResponse } from 'node:http';
import { RestError } from './errors';
import type { StatementResult } from './execute';
import type { ParsedQuery } from './query-grammar';
import { isSingleMedia, type Profile, type ResponseMedia } from './request';

/** MediaType.hs `toContentType`. */
const contentTypes: Record<ResponseMedia, string> = {
  json: 'application/json; charset=utf-8',
  object: 'application/vnd.pgrst.object+json; charset=utf-8',
  'json-stripped': 'application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8',
  'object-stripped': 'application/vnd.pgrst.object+json;nulls=stripped; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/** Postgres's `json_strip_nulls`: every object field whose value is null left out, at any depth. */
function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== null)
      .map(([name, field]) => [name, stripNulls(field)]),
  );
}

/** The answer's status, headers and body, shaped as PostgREST's Response.hs. */

export function sendResult(
  response: ServerResponse,
  status: number,
  result: StatementResult,
  {
    media,
    withBody,
    range,
    profile,
    unwrap = isSingleMedia(media),
  }: {
    media: ResponseMedia;
    withBody: boolean;
    range?: { offset: number };
    profile: Profile;
    /** The body is the one row, not an array: a single object asked for, or a call returning one value. */
    unwrap?: boolean;
  },
) {
  const headers: Record<string, string> = {};
  // With more than one exposed schema, PostgREST names the one that answered (Response.hs `profileHeader`).
  if (profile.negotiated) headers['Content-Profile'] = profile.schema;
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
  const stripped = media === 'json-stripped' || media === 'object-stripped';
  if (media !== 'csv' && (unwrap || stripped)) {
    const rows = JSON.parse(payload) as unknown[];
    // No row unwrapped is `null`, as PostgREST's `coalesce(json_agg(…)->0, 'null')` (SqlFragment.hs).
    const body = unwrap ? (rows[0] ?? null) : rows;
    payload = JSON.stringify(stripped ? stripNulls(body) : body);
  }
  headers['Content-Type'] = contentTypes[media];
  headers['Content-Length'] = String(Buffer.byteLength(payload));
  response.writeHead(status, headers);
  response.end(payload);
}

/**
 * PostgREST's `rangeStatus` (Query/RangeQuery.hs, Response.hs): with a known total, an offset past it is
 * 416 PGRST103; a page short of the total is 206.
 */
export function readStatus(query: ParsedQuery, result: StatementResult): number {
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

export function sendRestError(response: ServerResponse, restError: RestError) {
  const payload = JSON.stringify(restError.body());
  response.writeHead(restError.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
  });
  response.end(payload);
}
