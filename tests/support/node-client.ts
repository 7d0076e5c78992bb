import type { WebSocketLikeConstructor } from '@supabase/realtime-js';
import { createClient } from '@supabase/supabase-js';
import ws from 'ws';
import type { Database } from '../../supabase/types/database';
import { fetchRetryingShed } from './retry-shed';

/**
 * A supabase-js client for Node scripts and tests: one person per client (no session persistence,
 * no background refresh), typed with the generated database types.
 */
export function createNodeClient(apiUrl: string, key: string) {
  return createClient<Database>(apiUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // A call the gateway sheds under load (503 with Retry-After) is asked again, as a client should.
    global: { fetch: fetchRetryingShed },
    // Node 20 has no WebSocket of its own and supabase-js builds its Realtime client eagerly; ws behaves
    // as realtime-js expects, only its typings differ from the browser shape it declares.
    realtime: { transport: ws as unknown as WebSocketLikeConstructor },
  });
}

export type NodeClient = ReturnType<typeof createNodeClient>;
