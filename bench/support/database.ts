import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
 * Runs `bench` against its own Postgres (in `dataDir`, else a throwaway folder) with every migration applied
 * (unseeded unless `seed`), through a pool of `connections`; stops the pool and the server after, whatever
 * happened.
 */
export async function withBenchDatabase(
  { connections, seed = false, dataDir }: { connections: number; seed?: boolean; dataDir?: string },
  bench: (database: BenchDatabase) => Promise<void>,
): Promise<void> {
  const postgres = await startPostgres({ dataDir });
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

/** Runs `bench` with a data folder for a server kept on disk, in a temporary folder removed after. */
export async function withTempDataDir(bench: (dataDir: string) => Promise<void>): Promise<void> {
  const parentDir = await mkdtemp(path.join(tmpdir(), 'coinvault-bench-'));
  try {
    // As root the server runs as the postgres user, which must be able to create its data folder here.
    await chmod(parentDir, 0o777);
    await bench(path.join(parentDir, 'data'));
  } finally {
    await rm(parentDir, { recursive: true, force: true });
  }
}

/** Runs `work` in one transaction on a connection of `pool`: committed if it ends, rolled back if it throws. */
export async function inTransaction<Result>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<Result>,
): Promise<Result> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}
