import { unavailableReason, type UnavailableReason } from '../database';
import type { CallShape, Routine } from './catalog';

/** An error answered in PostgREST's shape `{code, message, details, hint}` with PostgREST's status. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** A text, or (PGRST201) the candidates described. */
    readonly details: string | object[] | null = null,
    readonly hint: string | null = null,
  ) {
    super(message);
  }

  body() {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}

/**
 * PGRST202 as PostgREST 14 words it (Error.hs, `NoRpc`): the argument names sorted, as its set of keys is;
 * a POST of JSON also searched for one unnamed json/jsonb argument, and a raw body (text, xml, bytes) only
 * for one unnamed argument of its type, without naming any parameters.
 */
function unknownFunction(
  schema: string,
  name: string,
  { names, post, media }: CallShape,
  closest?: string,
): RestError {
  const keys = [...names].sort();
  const func = `${schema}.${name}`;
  const rawBody = post && (media === 'text' || media === 'xml' || media === 'bytea');
  const listed = keys.length === 0 ? ' without parameters' : `(${keys.join(', ')})`;
  const searched =
    keys.length === 0
      ? ' without parameters'
      : ` with parameter${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`;
  const details = rawBody
    ? ` with a single unnamed ${media} parameter`
    : post && media === 'json'
      ? `${searched} or with a single unnamed json/jsonb parameter`
      : searched;
  return new RestError(
    404,
    'PGRST202',
    `Could not find the function ${func}${rawBody ? '' : listed} in the schema cache`,
    `Searched for the function ${func}${details}, but no matches were found in the schema cache.`,
    closest === undefined ? null : `Perhaps you meant to call the function ${schema}.${closest}`,
  );
}

export const restErrors = {
  unsupported: (part: string) =>
    new RestError(400, 'PGRST100', `Unsupported by the local stack: ${part}`, null, 'See devstack/README.md'),
  /** A media type PostgREST can write but the local stack does not: 406 as PostgREST's PGRST107. */
  unsupportedMedia: (part: string) =>
    new RestError(406, 'PGRST107', `Unsupported by the local stack: ${part}`, null, 'See devstack/README.md'),
  parse: (message: string, details: string) => new RestError(400, 'PGRST100', message, details),
  invalidBody: (details: string) => new RestError(400, 'PGRST102', 'Empty or invalid json', details),
  bodyTooLarge: (limit: number) =>
    new RestError(413, 'PGRST413', 'Payload Too Large', `Request bodies are limited to ${limit} bytes`),
  unknownTable: (schema: string, name: string, closest?: string) =>
    new RestError(
      404,
      'PGRST205',
      `Could not find the table '${schema}.${name}' in the schema cache`,
      null,
      closest === undefined ? null : `Perhaps you meant the table '${schema}.${closest}'`,
    ),
  unknownColumn: (table: string, column: string) =>
    new RestError(400, '42703', `column ${table}.${column} does not exist`),
  unknownInsertColumn: (table: string, column: string) =>
    new RestError(400, 'PGRST204', `Could not find the '${column}' column of '${table}' in the schema cache`),
  unknownFunction,
  ambiguousFunction: (routines: Routine[]) =>
    new RestError(
      300,
      'PGRST203',
      `Could not choose the best candidate function between: ${routines
        .map(
          (routine) =>
            `${routine.schema}.${routine.name}(${routine.arguments.map((argument) => `${argument.name} => ${argument.type}`).join(', ')})`,
        )
        .join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    ),
  notSingleObject: (rows: number) =>
    new RestError(
      406,
      'PGRST116',
      'Cannot coerce the result to a single JSON object',
      `The result contains ${rows} rows`,
    ),
  /** PostgREST's `UnacceptableSchema` (Error.hs): a profile header naming a schema not in `db-schemas`. */
  schema: (schema: string, exposed: string[]) =>
    new RestError(
      406,
      'PGRST106',
      `Invalid schema: ${schema}`,
      null,
      `Only the following schemas are exposed: ${exposed.join(', ')}`,
    ),
  mediaType: (accept: string) =>
    new RestError(406, 'PGRST107', `None of these media types are available: ${accept}`),
  method: (method: string) => new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`),
  maxAffected: (affected: number, limit: number) =>
    new RestError(
      400,
      'PGRST124',
      'Query result exceeds max-affected preference constraint',
      `The query affects ${affected} rows`,
      `Allowed at most ${limit}`,
    ),
};

interface PgErrorFields {
  code?: string;
  message?: string;
  detail?: string;
  hint?: string;
}

/** PostgREST's mapping of SQLSTATE to HTTP status (42501 depends on whether the caller signed in). */
function statusForSqlState(code: string, signedIn: boolean): number {
  if (code === '42501') return signedIn ? 403 : 401;
  if (code === '23503' || code === '23505') return 409;
  if (code === '42883' || code === '42P01') return 404;
  if (code === '25006') return 405;
  if (code === 'P0001') return 400;
  if (/^PT\d{3}$/.test(code)) return Number(code.slice(2));
  if (/^(08|53)/.test(code)) return 503;
  if (code === '54000') return 413;
  if (/^(22|23|42)/.test(code)) return 400;
  if (/^(09|0L|0P|28)/.test(code)) return 403;
  if (/^(25|2D|2F|38|39|3B|40|55|57|58|F0|HV|P0|XX)/.test(code)) return 500;
  return 400;
}

/**
 * A database error as PostgREST answers it. Undefined for anything else, and for the database being
 * unavailable (`unavailableReason`), which the gateway answers 503 with `Retry-After` for every service.
 */
export function restErrorFromPg(error: unknown, signedIn: boolean): RestError | undefined {
  if (unavailableReason(error)) return undefined;
  const fields = error as PgErrorFields;
  if (typeof fields?.code !== 'string' || !/^[0-9A-Z]{5}$/.test(fields.code)) return undefined;
  return new RestError(
    statusForSqlState(fields.code, signedIn),
    fields.code,
    fields.message ?? 'Database error',
    fields.detail ?? null,
    fields.hint ?? null,
  );
}

const unavailableMessages: Record<UnavailableReason, [code: string, message: string]> = {
  unreachable: [
    'PGRST000',
    'Could not connect with the database due to an incorrect db-uri or due to the PostgreSQL service not running.',
  ],
  'connection-lost': ['PGRST001', 'Could not connect with the database due to an internal error.'],
  'pool-exhausted': ['PGRST003', 'Timed out acquiring connection from connection pool.'],
  'lock-timeout': ['55P03', 'canceling statement due to lock timeout'],
};

/**
 * PostgREST's answer while the database cannot serve the request (its `Error.hs`: PGRST000, PGRST001,
 * PGRST003), always 503 here so that clients retry after `Retry-After`. Two deliberate differences from
 * PostgREST, which answers 504 for PGRST003 and 500 for a lock timeout (55P03): both are "try again in a
 * moment", and a client library retries a 503.
 */
export function restUnavailable(reason: UnavailableReason): RestError {
  const [code, message] = unavailableMessages[reason];
  return new RestError(503, code, message);
}
