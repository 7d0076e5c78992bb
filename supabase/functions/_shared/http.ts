/**
 * HTTP plumbing shared by the `withdrawals` and `withdrawal-details` functions: CORS for the browser,
 * refusals as `{ error }` with the status docs/architecture.md §3 names, a size-capped JSON body, the caller's
 * verified identity, and a service-role client for the steps the caller may not take directly.
 */
import { createClient, type SupabaseClient, type User } from '@supabase/supabase-js';
import type { Database } from '../../types/database.ts';

export const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, idempotency-key',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
};

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'Content-Type': 'application/json' },
  });
}

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

function environment(name: string): string {
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

/** The signed-in caller, verified by Auth; 401 without a valid session. */
export async function requireUser(request: Request): Promise<User> {
  const token = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
  if (!token) throw new HttpError(401, 'Sign in to continue');
  const client = createClient(environment('SUPABASE_URL'), environment('SUPABASE_ANON_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { data, error } = await client.auth.getUser(token);
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

/** The signed-in caller when their stored role is admin; 401 without a session, 403 for anyone else. */
export async function requireAdmin(request: Request, refusal: string): Promise<User> {
  const caller = await requireUser(request);
  const { data, error } = await serviceClient()
    .from('profiles')
    .select('role')
    .eq('id', caller.id)
    .maybeSingle();
  if (error) throw error;
  if (data?.role !== 'admin') throw new HttpError(403, refusal);
  return caller;
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
      console.error(error);
      return jsonResponse(500, { error: fallbackMessage });
    }
  };
}
