import { createClient } from '@supabase/supabase-js';
import { env } from '@/config/env';
import type { Database } from '@/types/database';
import { createFetchWithTimeout } from './request-timeout';

/**
 * The one Supabase client of the app, typed with the generated database types. Every request gives up
 * after the screen's time-out (see `request-timeout.ts`); the session's 5-minute early refresh is
 * started by the AuthProvider (see `session-refresh.ts`). PKCE: a mailed link (confirmation, password
 * reset) comes back with `?code=`, which only this browser, holding the verifier, can exchange for a
 * session, so a crafted link cannot sign a victim into someone else's account.
 */
export const supabase = createClient<Database>(env.supabaseUrl, env.supabaseAnonKey, {
  global: { fetch: createFetchWithTimeout() },
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true, flowType: 'pkce' },
});
