import pg from 'pg';
import { startPostgres } from '../../devstack/src/db/postgres';
import { prepareDatabase } from '../../devstack/src/db/prepare';

/** What a bench runs against (see `withBenchDatabase`). */
export interface BenchDatabase {
  url: string;
  /** Its data folder, for `postgresCpuMs`. */
  dataDir: string;
  pool: pg.Pool;
}

/**
 * Runs `bench` against its own Postgres with every migration applied (unseeded unless `seed`), through a pool
 * of `connections`; stops the pool and the server after, whatever happened.
 */
export async function withBenchDatabase(
  { connections, seed = false }: { connections: number; seed?: boolean },
  bench: (database: BenchDatabase) => Promise<void>,
): Promise<void> {
  const postgres = await startPostgres();
  const pool = new pg.Pool({ connectionString: postgres.url, max: connections });
  // Stopping the server at the end closes connections the pool is still letting go of.
  pool.on('error', () => undefined);
  try {
    await prepareDatabase(postgres.url, { seed });
    await bench({ url: postgres.url, dataDir: postgres.dataDir, pool });
  } finally {
    await pool.end();
    await postgres.stop();
  }
}
