import { FunctionsHttpError } from '@supabase/supabase-js';

export interface FunctionRefusal {
  message: string;
  /** A machine-readable reason some refusals carry, e.g. `insufficient_aal`. */
  code?: string;
}

/** The refusal an Edge Function sent as `{ error, code? }` (docs/architecture.md §3), when it sent one. */
export async function readFunctionRefusal(error: unknown): Promise<FunctionRefusal | undefined> {
  if (!(error instanceof FunctionsHttpError)) return undefined;
  const body: unknown = await (error.context as Response).json().catch(() => undefined);
  const { error: message, code } = (body ?? {}) as { error?: unknown; code?: unknown };
  if (typeof message !== 'string') return undefined;
  return typeof code === 'string' ? { message, code } : { message };
}

/** The refusal text an Edge Function sent, when it sent one. */
export async function functionRefusal(error: unknown): Promise<string | undefined> {
  return (await readFunctionRefusal(error))?.message;
}
