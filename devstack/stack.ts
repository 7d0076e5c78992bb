import { localDefaults } from './config';
import { startPostgres, type PostgresOptions, type RunningPostgres } from './db/postgres';
import { prepareDatabase } from './db/prepare';

export interface RunningStack {
  databaseUrl: string;
  /** Base URL of the Supabase-compatible API (gateway), e.g. http://127.0.0.1:54321. */
  apiUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  postgres: RunningPostgres;
  stop(): Promise<void>;
}

export interface StackOptions extends PostgresOptions {
  seed?: boolean;
  apiPort?: number;
}

/** Starts the local stack: Postgres (bootstrap, migrations, seed) and the API gateway. */
export async function startStack(options: StackOptions = {}): Promise<RunningStack> {
  const postgres = await startPostgres(options);
  try {
    await prepareDatabase(postgres.url, { seed: options.seed ?? true });
  } catch (error) {
    await postgres.stop();
    throw error;
  }
  return {
    databaseUrl: postgres.url,
    apiUrl: `http://127.0.0.1:${options.apiPort ?? localDefaults.apiPort}`,
    anonKey: localDefaults.anonKey,
    serviceRoleKey: localDefaults.serviceRoleKey,
    jwtSecret: localDefaults.jwtSecret,
    postgres,
    async stop() {
      await postgres.stop();
    },
  };
}
