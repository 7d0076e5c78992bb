import { FunctionsHttpError } from '@supabase/supabase-js';

/** The refusal text an Edge Function sent as `{ error }` (docs/architecture.md §3), when it sent one. */
export async function functionRefusal(error: unknown): Promise<string | undefined> {
  if (!(error instanceof FunctionsHttpError)) return undefined;
  const body: unknown = await (error.context as Response).json().catch(() => undefined);
  const message = (body as { error?: unknown } | undefined)?.error;
  return typeof message === 'string' ? message : undefined;
}
