import { createClient } from '@supabase/supabase-js';
import { env } from '@/config/env';
import type { Database } from '@/types/database';
import { afterNextPaint } from './after-next-paint';
import { createFetchWithTimeout } from './request-timeout';

/** Auth's own requests (sign-in, the session's refresh, which every other request waits for) go at once. */
function isAuthRequest(input: RequestInfo | URL): boolean {
  return new URL(input instanceof Request ? input.url : input).pathname.includes('/auth/v1/');
}

/**
 * The one Supabase client of the app, typed with the generated database types. Every request but Auth's
 * leaves once the browser has drawn the frame that asked for it (a page's skeletons, a button's pending
 * state), so making it does not hold that frame back, and every request gives up after the screen's
 * time-out (see `request-timeout.ts`); the session's 5-minute early refresh is started by the
 * AuthProvider (see `session-refresh.ts`). PKCE: a mailed link (confirmation, password reset) comes back
 * with `?code=`, which only this browser, holding the verifier, can exchange for a session, so a crafted
 * link cannot sign a victim into someone else's account.
 */
export const supabase = createClient<Database>(env.supabaseUrl, env.supabaseAnonKey, {
  global: {
    fetch: createFetchWithTimeout(async (input, init) => {
      if (!isAuthRequest(input)) await afterNextPaint();
      return fetch(input, init);
    }),
  },
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true, flowType: 'pkce' },
});
