import { localDefaults } from './config';
import { startPostgres, type PostgresOptions, type RunningPostgres } from './db/postgres';
import { prepareDatabase } from './db/prepare';
import { projectTemplate } from './db/template';
import { ensureFunctionSecrets } from './functions-secrets';
import { startGateway, type GatewayOptions, type RunningGateway } from './gateway/server';
import { loadProject } from './project';

export interface RunningStack {
  databaseUrl: string;
  /** Base URL of the Supabase-compatible API (gateway), e.g. http://127.0.0.1:54321. */
  apiUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  postgres: RunningPostgres;
  gateway: RunningGateway;
  stop(): Promise<void>;
}

export interface StackOptions extends Omit<PostgresOptions, 'copyOf'> {
  /** The project's folder (its `supabase/` and `devstack.config.ts`); defaults to the working directory. */
  projectRoot?: string;
  seed?: boolean;
  /**
   * A throwaway database starts as a copy of a prepared template (db/template.ts) instead of running the
   * migrations; false runs them. Never for a persistent `dataDir`.
   */
  template?: boolean;
  /** Without one the gateway takes a free port. */
  apiPort?: number;
  gateway?: Pick<
    GatewayOptions,
    | 'functionsDir'
    | 'functionTimeoutMs'
    | 'rateLimits'
    | 'printMail'
    | 'logRequests'
    | 'admissionLimits'
    | 'project'
    | 'functionBodyTimeoutMs'
    | 'realtimeMaxBufferedBytes'
    | 'realtimeMaxUnsentBytes'
    | 'schedules'
    | 'onScheduleFailure'
  >;
}

/** Rate limits high enough for a test suite signing in many times from one address. */
const testRateLimits = {
  signInSignUps: { limit: 100_000, windowMs: 60_000 },
  tokenRefresh: { limit: 100_000, windowMs: 60_000 },
  verify: { limit: 100_000, windowMs: 60_000 },
  emailSent: { limit: 100_000, windowMs: 60_000 },
};

/** Starts the local stack: Postgres (bootstrap, migrations, seed) and the API gateway. */
export async function startStack(options: StackOptions = {}): Promise<RunningStack> {
  const project = await loadProject(options.projectRoot);
  const seed = options.seed ?? true;
  const template =
    options.dataDir === undefined && (options.template ?? true)
      ? await projectTemplate(project.root, seed)
      : undefined;
  const postgres = await startPostgres({ ...options, copyOf: template });
  let gateway: RunningGateway;
  try {
    if (!template) await prepareDatabase(postgres.url, { seed, projectRoot: project.root });
    // The functions' secrets exist before any function starts.
    await ensureFunctionSecrets(project);
    gateway = await startGateway({
      projectRoot: project.root,
      databaseUrl: postgres.url,
      jwtSecret: localDefaults.jwtSecret,
      anonKey: localDefaults.anonKey,
      serviceRoleKey: localDefaults.serviceRoleKey,
      port: options.apiPort,
      rateLimits: testRateLimits,
      ...options.gateway,
    });
  } catch (error) {
    await postgres.stop();
    throw error;
  }
  return {
    databaseUrl: postgres.url,
    apiUrl: gateway.url,
    anonKey: gateway.anonKey,
    serviceRoleKey: gateway.serviceRoleKey,
    jwtSecret: localDefaults.jwtSecret,
    postgres,
    gateway,
    async stop() {
      try {
        await gateway.stop();
      } finally {
        // Postgres stops (and its throwaway folder goes) even if the gateway did not stop cleanly.
        await postgres.stop();
      }
    },
  };
}
