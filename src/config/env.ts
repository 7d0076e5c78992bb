const localApiUrl = 'http://127.0.0.1:54321';
const localAnonKey =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

// A production build is refused without these (vite.config.ts); the local stack's values serve dev and tests.
const supabaseUrl: string = import.meta.env.VITE_SUPABASE_URL ?? localApiUrl;

/** Build-time configuration. */
export const env = {
  supabaseUrl,
  supabaseAnonKey: (import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined) ?? localAnonKey,
  marketApiUrl:
    (import.meta.env.VITE_MARKET_API_URL as string | undefined) ?? `${supabaseUrl}/functions/v1/market`,
} as const;
