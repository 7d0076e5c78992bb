import pg from 'pg';

/**
 * A pool whose connections may die at any moment (Postgres restarted, `pg_terminate_backend`, disk full)
 * without ending the process. pg-pool listens for errors only on idle clients: a client that is checked out
 * when its connection dies, between two statements of a transaction, emits 'error' with no listener, which
 * Node turns into an uncaught exception. Every client gets its own listener; the next statement on it
 * rejects, and whoever holds it answers or retries.
 *
 * An idle connection is kept 30 s, as PostgREST's `db-pool-max-idletime` does (node-postgres closes it
 * after 10 s): a new one costs a SCRAM handshake on both sides, a new backend and cold catalog caches.
 */
export function createPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ idleTimeoutMillis: 30_000, ...config });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
