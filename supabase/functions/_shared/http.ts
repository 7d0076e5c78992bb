/**
 * HTTP plumbing shared by the Edge Functions: CORS for the browser, refusals as `{ error }` with the status
 * docs/architecture.md §3 names, a size-capped JSON body checked against the domain's schemas, the caller's
 * verified identity and assurance level, the database's refusals passed on, and a service-role client for the
 * steps the caller may not take directly.
 */
import { createClient, type PostgrestError, type SupabaseClient, type User } from '@supabase/supabase-js';
import type { z } from 'zod';
import type { Database } from '../../types/database.ts';

export const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, idempotency-key',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
};

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'Content-Type': 'application/json', ...headers },
  });
}

/**
 * The database (or Auth, which needs it) cannot answer now but may a moment later: the function answers
 * 503 with `Retry-After`, as the API itself does, rather than a 500 or a misleading 401.
 */
class ServiceUnavailableError extends Error {}

/**
 * PostgREST's codes for a database it cannot reach now (unreachable, connection lost, no pooled connection
 * in time) and a lock not granted in time: the API answers them 503 with `Retry-After`.
 */
const unavailableCodes = new Set(['PGRST000', 'PGRST001', 'PGRST003', '55P03']);

function isUnavailable(error: unknown): boolean {
  if (error instanceof ServiceUnavailableError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && unavailableCodes.has(code);
}

/** Seconds a caller waits before retrying a 503, the API's own `Retry-After`. */
const retryAfterSeconds = '1';

/** A refusal the caller can read: `{ error: <message> }` plus any extra fields (validation issues). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function environment(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** Reads at most `limitBytes` of the body and parses it as JSON; bigger bodies are refused unread. */
export async function readJsonBody(request: Request, limitBytes: number): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limitBytes) throw new HttpError(413, `Request body is larger than ${limitBytes} bytes`);
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  // Content-Length can be absent (chunked upload), so the cap is enforced on what actually arrives.
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limitBytes) {
      await reader.cancel();
      throw new HttpError(413, `Request body is larger than ${limitBytes} bytes`);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new HttpError(400, 'Request body must be valid JSON');
  }
}

/**
 * `body` as `schema` reads it; otherwise 400 naming the first issue, with every issue and its field in
 * `issues` (the form shows each beside its field).
 */
export function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  throw new HttpError(400, issues[0]?.message ?? 'Invalid request', { issues });
}

/**
 * Passes on a database call's error: its own refusals carry the words to read (a raised message 400,
 * insufficient privilege 403, what it names not found 404); anything else is the function's failure (503 or
 * 500 from `serveJson`).
 */
export function throwIfFailed(error: PostgrestError | null): void {
  if (error?.code === 'P0001') throw new HttpError(400, error.message);
  if (error?.code === '42501') throw new HttpError(403, error.message);
  if (error?.code === 'P0002') throw new HttpError(404, error.message);
  if (error) throw error;
}

/** The signed-in caller, verified by Auth; 401 without a valid session. */
export async function requireUser(request: Request): Promise<User> {
  const token = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
  if (!token) throw new HttpError(401, 'Sign in to continue');
  const client = createClient(environment('SUPABASE_URL'), environment('SUPABASE_ANON_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { data, error } = await client.auth.getUser(token);
  // Auth answering 5xx (its database away) says nothing about the token.
  if (error?.status !== undefined && error.status >= 500) throw new ServiceUnavailableError(error.message);
  if (error || !data.user) throw new HttpError(401, 'Sign in to continue');
  return data.user;
}

/**
 * A client that acts as the caller (their own token): row-level security and `auth.uid()` apply to them, so the
 * database attributes a step to them from the token itself rather than from anything this function says.
 */
export function callerClient(request: Request): SupabaseClient<Database> {
  return createClient<Database>(environment('SUPABASE_URL'), environment('SUPABASE_ANON_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: request.headers.get('authorization') ?? '' } },
  });
}

/** Service-role client: for the steps only these functions may take (RPC, reading encrypted data). */
export function serviceClient(): SupabaseClient<Database> {
  return createClient<Database>(environment('SUPABASE_URL'), environment('SUPABASE_SERVICE_ROLE_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false },
  });
}

/**
 * A claim of the caller's token (`aal`: `aal2` once the session verified a second factor; `session_id`: the
 * Auth session). Read only after `requireUser`, whose Auth call verified the token.
 */
function tokenClaim(request: Request, claim: 'aal' | 'session_id'): string | undefined {
  const payload = /^Bearer [^.]+\.([^.]+)\./i.exec(request.headers.get('authorization') ?? '')?.[1];
  if (!payload) return undefined;
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  const value = (JSON.parse(json) as Record<string, unknown>)[claim];
  return typeof value === 'string' ? value : undefined;
}

/** The Auth session of the caller's token, verified by `requireUser`; 401 when the token names none. */
export function sessionId(request: Request): string {
  const session = tokenClaim(request, 'session_id');
  if (!session) throw new HttpError(401, 'Sign in to continue');
  return session;
}

/** Refuses (403, `insufficient_aal` as Auth names it) a session that has not verified a second factor. */
export function requireAal2(request: Request, refusal: string): void {
  if (tokenClaim(request, 'aal') !== 'aal2') throw new HttpError(403, refusal, { code: 'insufficient_aal' });
}

/**
 * The signed-in caller when their stored role is admin and their session is at aal2 (admins work only
 * there); 401 without a session, 403 for anyone else.
 */
export async function requireAdmin(request: Request, refusal: string): Promise<User> {
  const caller = await requireUser(request);
  const { data, error } = await serviceClient()
    .from('profiles')
    .select('role')
    .eq('id', caller.id)
    .maybeSingle();
  if (error) throw error;
  if (data?.role !== 'admin') throw new HttpError(403, refusal);
  requireAal2(request, 'Admins must confirm a code from their authenticator app (aal2) to do this');
  return caller;
}

/** Whether the person has a verified second factor, so their money leaves only from an aal2 session. */
export function hasVerifiedFactor(user: User): boolean {
  return (user.factors ?? []).some((factor) => factor.status === 'verified');
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A body field that must be a uuid (a record id); 400 with `message` otherwise. */
export function uuidField(body: unknown, field: string, message: string): string {
  const value = (body as Record<string, unknown> | null)?.[field];
  if (typeof value !== 'string' || !uuidPattern.test(value)) throw new HttpError(400, message);
  return value;
}

/** The `Idempotency-Key` header: one uuid per form submission, the same on every retry of it. */
export function idempotencyKey(request: Request): string {
  const value = request.headers.get('idempotency-key') ?? '';
  if (!uuidPattern.test(value)) throw new HttpError(400, 'Idempotency-Key header must be a uuid');
  return value;
}

export function masterKeySecret(): string {
  return environment('WITHDRAWAL_MASTER_KEY');
}

/**
 * Serves POST requests with `handle`, answering CORS preflights, refusing other methods, and turning
 * `HttpError` into its status and anything unexpected into a 500 with `fallbackMessage`.
 */
export function serveJson(
  fallbackMessage: string,
  handle: (request: Request) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (request.method !== 'POST') return jsonResponse(405, { error: 'Use POST' });
    try {
      return await handle(request);
    } catch (error) {
      if (error instanceof HttpError)
        return jsonResponse(error.status, { error: error.message, ...error.extra });
      if (isUnavailable(error)) {
        // The product's own words for the failed step, with a 503 that says "try again in a moment".
        return jsonResponse(503, { error: fallbackMessage }, { 'Retry-After': retryAfterSeconds });
      }
      console.error(error);
      return jsonResponse(500, { error: fallbackMessage });
    }
  };
}
