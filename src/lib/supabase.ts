import { createClient } from '@supabase/supabase-js';
import { env } from '@/config/env';
import type { Database } from '@/types/database';

/** The one Supabase client of the app, typed with the generated database types. */
export const supabase = createClient<Database>(env.supabaseUrl, env.supabaseAnonKey);
