import { z } from 'zod';

/** What a production build must be told: the Supabase project it talks to. */
const buildEnvironmentSchema = z.object({
  VITE_SUPABASE_URL: z.url({
    error: 'VITE_SUPABASE_URL must be the project URL, e.g. https://<ref>.supabase.co',
  }),
  VITE_SUPABASE_ANON_KEY: z
    .string({ error: "VITE_SUPABASE_ANON_KEY must be the project's anon key" })
    .regex(/^\S{20,}$/, "VITE_SUPABASE_ANON_KEY must be the project's anon key"),
  VITE_MARKET_API_URL: z.url({ error: 'VITE_MARKET_API_URL must be a URL when set' }).optional(),
});

export type BuildEnvironment = z.infer<typeof buildEnvironmentSchema>;

/**
 * Checks a production build's environment and throws one message naming every missing or malformed variable.
 * The local stack's defaults apply only to the dev server and tests, never to a build someone could deploy.
 */
export function requireBuildEnvironment(variables: Record<string, string | undefined>): BuildEnvironment {
  const parsed = buildEnvironmentSchema.safeParse(variables);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  - ${issue.message}`).join('\n');
  throw new Error(
    `A production build needs the Supabase project's settings (see docs/deploying.md):\n${problems}`,
  );
}
