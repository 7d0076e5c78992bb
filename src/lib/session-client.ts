const importSessionClient = () =>
  Promise.all([import('./supabase'), import('./session-refresh'), import('./query-client')]);

let sessionClient: ReturnType<typeof importSessionClient> | undefined;

/**
 * Loads the Supabase client (which restores the stored session as it starts) and what the session needs
 * beside it (the early refresh, the server-data cache it empties when the person changes), once. The entry
 * starts it when a session is stored, while the page's code is still on its way, so the session check does
 * not wait for that code to arrive and render first.
 */
export function loadSessionClient(): ReturnType<typeof importSessionClient> {
  sessionClient ??= importSessionClient();
  return sessionClient;
}

/**
 * The Supabase client, through the same load: for the log-in and sign-up forms, whose first render then
 * does not wait for supabase-js (most of it unused until the person submits).
 */
export async function loadSupabase() {
  const [{ supabase }] = await loadSessionClient();
  return supabase;
}
