import { env } from '@/config/env';

/** Where supabase-js keeps the session by default (`sb-<first label of the API host>-auth-token`). */
export const sessionStorageKey = `sb-${new URL(env.supabaseUrl).hostname.split('.')[0]}-auth-token`;

/**
 * Whether this browser keeps a session, read without loading supabase-js: a public page loads its
 * signed-in extras (the market table's watchlist) only then, so a visitor downloads none of them. Only a
 * hint: whether the session is still good is Auth's answer once those extras load.
 */
export function hasStoredSession(): boolean {
  try {
    return localStorage.getItem(sessionStorageKey) !== null;
  } catch {
    // Storage refused (a privacy setting): supabase-js could not keep a session there either.
    return false;
  }
}
