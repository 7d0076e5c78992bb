import type { ServerResponse } from 'node:http';
import { RestError } from './errors';
import type { StatementResult } from './execute';
import type { ParsedQuery } from './query-grammar';

/** The answer's status, headers and body, shaped as PostgREST's Response.hs. */

export function sendResult(
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
