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

/** `Accept: application/vnd.pgrst.object+json` asks for exactly one row as an object. */
export function wantsSingleObject(request: IncomingMessage): boolean {
  const accept = headerValue(request, 'accept') ?? '';
  if (accept.includes('nulls=stripped')) throw restErrors.unsupported(`Accept: ${accept}`);
  if (accept.includes('application/vnd.pgrst.object+json')) return true;
  const supported = ['application/json', 'application/vnd.pgrst.array+json', '*/*', ''];
  const types = accept.split(',').map((type) => (type.split(';')[0] ?? '').trim());
  if (!types.some((type) => supported.includes(type))) throw restErrors.mediaType(accept);
  return false;
}

export function checkSchema(request: IncomingMessage) {
  for (const header of ['accept-profile', 'content-profile']) {
    const schema = headerValue(request, header);
    if (schema && schema !== 'public') throw restErrors.schema(schema);
  }
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
