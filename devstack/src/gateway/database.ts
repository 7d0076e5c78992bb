import type pg from 'pg';

/**
 * How long a request waits for a pooled connection (or for a new one to open) before it is answered 503:
 * PostgREST's `db-pool-acquisition-timeout` default.
 */
export const poolAcquireTimeoutMs = 10_000;
/** Seconds a client is told to wait before retrying a 503 (PostgREST's first reconnection back-off). */
export const retryAfterSeconds = 1;
export const retryAfterHeader = { 'Retry-After': String(retryAfterSeconds) };

/**
 * Runs `work` in one transaction on a pooled client and commits what it returns; any throw rolls back. A
 * connection that died under the transaction cannot roll back: it leaves the pool instead of returning.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin');
    let result: T;
    try {
      result = await work(client);
    } catch (error) {
      await client.query('rollback').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    }
    await client.query('commit');
    return result;
  } catch (error) {
    broken ??= unavailableReason(error) ? (error as Error) : undefined;
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Why the database could not serve a request now, though it may a moment later: it is down, the connection
 * died under the request, every pooled connection stayed busy, or a row stayed locked past `lock_timeout`.
 */
export type UnavailableReason = 'unreachable' | 'connection-lost' | 'pool-exhausted' | 'lock-timeout';

// SQLSTATEs that mean the connection (or the server) went away, not that the statement was wrong:
// class 08 (connection exception), admin/crash shutdown and "starting up", too many connections.
const lostConnectionStates = /^(08...|57P01|57P02|57P03|53300)$/;
const refusedCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
const droppedCodes = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/**
 * Whether `error` is the database being unavailable rather than an answer about the request, and which
 * way. pg reports a dropped socket without a SQLSTATE, by message.
 */
export function unavailableReason(error: unknown): UnavailableReason | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code } = error as Error & { code?: unknown };
  if (typeof code === 'string') {
    if (code === '57P03' || refusedCodes.has(code)) return 'unreachable';
    if (code === '55P03') return 'lock-timeout';
    if (lostConnectionStates.test(code) || droppedCodes.has(code)) return 'connection-lost';
  }
  if (error.message === 'timeout exceeded when trying to connect') return 'pool-exhausted';
  if (/^Connection terminated|not queryable|Connection closed/.test(error.message)) return 'connection-lost';
  return undefined;
}
