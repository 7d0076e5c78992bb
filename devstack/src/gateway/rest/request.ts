import type { IncomingMessage } from 'node:http';
import { BodyTooLargeError, headerValue, readBody } from '../http';
import { RestError, restErrors } from './errors';
import type { CallShape } from './catalog';
import type { ParsedQuery } from './query-grammar';

/** What the request asks for besides its URL: preferences, media type, profile, body, range. */

export interface Preferences {
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

export function parsePreferences(request: IncomingMessage): Preferences {
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

/**
 * How the answer is written: a JSON array, one row as an object (`application/vnd.pgrst.object+json`), either
 * with its null fields left out (`;nulls=stripped`, PostgREST's `json_strip_nulls`), or CSV (`text/csv`). The
 * first type of `Accept` the stack can write wins, as PostgREST negotiates (MediaType.hs, Plan/Negotiate.hs).
 */
export type ResponseMedia = 'json' | 'object' | 'json-stripped' | 'object-stripped' | 'csv';

/** One row as an object (`.single()`, `.maybeSingle()`), with or without nulls. */
export function isSingleMedia(media: ResponseMedia): boolean {
  return media === 'object' || media === 'object-stripped';
}

const jsonTypes = ['application/json', '*/*', ''];

export function acceptedMedia(request: IncomingMessage): ResponseMedia {
  const accept = headerValue(request, 'accept') ?? '';
  for (const item of accept.split(',')) {
    const [rawType = '', ...parameters] = item.split(';');
    const type = rawType.trim().toLowerCase();
    const stripped = parameters.some(
      (parameter) => parameter.replace(/\s/g, '').toLowerCase() === 'nulls=stripped',
    );
    if (type === 'application/vnd.pgrst.object+json' || type === 'application/vnd.pgrst.object')
      return stripped ? 'object-stripped' : 'object';
    // MediaType.hs: `vnd.pgrst.array` is plain JSON unless it asks for stripped nulls.
    if (type === 'application/vnd.pgrst.array+json' || type === 'application/vnd.pgrst.array')
      return stripped ? 'json-stripped' : 'json';
    if (jsonTypes.includes(type)) return 'json';
    if (type === 'text/csv') return 'csv';
    // PostgREST writes GeoJSON with PostGIS's ST_AsGeoJSON, which the embedded Postgres lacks.
    if (type === 'application/geo+json')
      throw restErrors.unsupportedMedia('GeoJSON (Accept: application/geo+json) needs PostGIS');
    if (type.startsWith('application/vnd.pgrst.plan'))
      throw restErrors.unsupportedMedia(`execution plans (Accept: ${type})`);
  }
  throw restErrors.mediaType(accept);
}

/** The schema a request is for, and whether it was negotiated (PostgREST then names it in the answer). */
export interface Profile {
  schema: string;
  negotiated: boolean;
}

/**
 * PostgREST's `getSchema` (ApiRequest.hs): a write names its schema with `Content-Profile`, a read or a
 * GET call with `Accept-Profile`; none is the first exposed schema, one not exposed is 406 PGRST106.
 */
export function profileOf(request: IncomingMessage, exposed: string[]): Profile {
  const method = request.method ?? 'GET';
  const header = ['POST', 'PATCH', 'PUT', 'DELETE'].includes(method) ? 'content-profile' : 'accept-profile';
  const asked = headerValue(request, header);
  if (asked === undefined) return { schema: exposed[0] ?? 'public', negotiated: exposed.length !== 1 };
  if (!exposed.includes(asked)) throw restErrors.schema(asked, exposed);
  return { schema: asked, negotiated: true };
}

/** The body's media type as PostgREST tells bodies apart (MediaType.hs); none is JSON. */
export function bodyMedia(request: IncomingMessage): CallShape['media'] {
  const type = (headerValue(request, 'content-type') ?? 'application/json')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (type === 'application/json' || type === '') return 'json';
  if (type === 'text/plain') return 'text';
  if (type === 'text/xml') return 'xml';
  if (type === 'application/octet-stream') return 'bytea';
  return 'other';
}

export async function readRaw(request: IncomingMessage, limit: number): Promise<Buffer> {
  try {
    return await readBody(request, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw restErrors.bodyTooLarge(limit);
    throw error;
  }
}

export function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw restErrors.invalidBody(error instanceof Error ? error.message : 'invalid JSON');
  }
}

export async function readJson(request: IncomingMessage, limit: number): Promise<unknown> {
  return parseJson((await readRaw(request, limit)).toString('utf8'));
}

export function rangeFromHeader(request: IncomingMessage, query: ParsedQuery) {
  const range = headerValue(request, 'range')?.match(/^(?:items=)?(\d+)-(\d*)$/);
  if (!range) return;
  const from = Number(range[1]);
  const to = range[2] ? Number(range[2]) : undefined;
  query.offset = from;
  if (to !== undefined) query.limit = Math.min(query.limit ?? Infinity, to - from + 1);
}

export function rowsOf(body: unknown, allowArray: boolean): Record<string, unknown>[] {
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
