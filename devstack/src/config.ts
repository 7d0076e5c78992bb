/**
 * Fixed local values (docs/architecture.md §5): the same ones `supabase start` prints, so `.env` files
 * written for one work with the other. Every value can be overridden by the environment.
 */
export const localDefaults = {
  apiPort: Number(process.env.API_PORT ?? 54321),
  dbPort: Number(process.env.DB_PORT ?? 54322),
  appPort: 5173,
  jwtSecret: process.env.JWT_SECRET ?? 'super-secret-jwt-token-with-at-least-32-characters-long',
  anonKey:
    process.env.SUPABASE_ANON_KEY ??
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0',
  serviceRoleKey:
    process.env.SUPABASE_SERVICE_ROLE_KEY ??
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU',
} as const;
