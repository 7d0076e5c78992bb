import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * What a Supabase project tells the local stack beyond its `supabase/` folder (config.toml, migrations,
 * seed.sql, functions), in a `devstack.config.ts` at its root. The stack imports nothing of the project: it
 * reads this file at start, as Vite reads `vite.config.ts`. See devstack/README.md, "Another project".
 */

/** A stand-in for an outside service the project's functions call (the only outside party tests may stub). */
export interface UpstreamStub {
  /** Answers a request whose path starts with `/<name>/`, the name the project gave the stub. */
  handle(request: IncomingMessage, response: ServerResponse): void | Promise<void>;
}

export interface UpstreamDefinition {
  /** Made once per gateway. */
  create(): UpstreamStub;
  /** The function environment variable that holds the stub's base URL. */
  env: string;
  /** Appended to `<gateway>/<name>` in that variable (e.g. `/api/v3`). */
  basePath?: string;
}

/**
 * A job as Supabase Cron runs one with pg_net: `POST /functions/v1/<function>` with the service-role key and
 * a JSON body, every `everySeconds` (hosted: a `'N seconds'` schedule for 1 to 59, a cron expression for
 * whole minutes). See devstack/README.md, "Schedules".
 */
export interface FunctionSchedule {
  /** The Edge Function called. */
  function: string;
  everySeconds: number;
  /** The JSON body sent; `{}` without one. */
  body?: Record<string, unknown>;
}

export interface DevstackConfig {
  /** Stand-ins served by the gateway at `/<name>/…`; each function finds its URL in the named variable. */
  upstreams?: Record<string, UpstreamDefinition>;
  /**
   * Secrets the functions need, made on the first start into `supabase/functions/.env` (git-ignored) and
   * never replaced, as `supabase secrets set` keeps them for a hosted project.
   */
  functionSecrets?: Record<string, () => string>;
  /**
   * Jobs the local stack runs as Supabase Cron would, by job name. `npm start` runs them; a stack started by
   * `startStack` (tests, benchmarks) runs only the schedules it is given, so no test meets a surprise call.
   */
  schedules?: Record<string, FunctionSchedule>;
  /** Accounts the project's seed makes, printed by `npm start` so a developer can sign in (local values only). */
  seededAccounts?: Record<string, { email: string; password: string; totpSecret?: string }>;
  /** `npm start`: builds the app for the local API into `outDir` (without it, only the stack starts). */
  buildApp?(target: { outDir: string; apiUrl: string; anonKey: string }): Promise<void>;
}

/** Typed identity, for the config file. */
export function defineDevstackConfig(config: DevstackConfig): DevstackConfig {
  return config;
}

export interface DevstackProject {
  /** The folder holding `supabase/` and, optionally, `devstack.config.ts`. */
  root: string;
  config: DevstackConfig;
}

/** The project at `root` (default: the working directory), with its `devstack.config.ts` when it has one. */
export async function loadProject(root: string = process.cwd()): Promise<DevstackProject> {
  const configFile = path.join(root, 'devstack.config.ts');
  if (!existsSync(configFile)) return { root, config: {} };
  const loaded = (await import(pathToFileURL(configFile).href)) as { default?: DevstackConfig };
  if (!loaded.default) throw new Error(`${configFile} must export its config as the default export`);
  return { root, config: loaded.default };
}
