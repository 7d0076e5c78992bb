import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createPool } from '../../devstack/src/db/pool';

const databaseUrl = inject('databaseUrl');

/**
 * Every pool of the local stack (the gateway's, Realtime's authorization, row checks and visibility gate)
 * comes from `createPool`: how its connections end, and how long an idle one stays.
 */

/**
 * A pool holds connections between the statements of a transaction. Postgres may end such a connection at
 * any moment; the stack must go on, not die of an uncaught 'error' (Vitest fails the run on one).
 */
describe('a pooled connection ended by Postgres between two statements', () => {
  it('rejects the next statement on it, and the pool serves again on a new connection', async () => {
    const pool = createPool({ connectionString: databaseUrl, max: 1, application_name: 'pool-under-test' });
    const operator = new pg.Client({ connectionString: databaseUrl });
    await operator.connect();
    try {
      const client = await pool.connect();
      await client.query('begin');
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      // Postgres's FATAL message comes first, then the socket closes: once it has, the message was handled.
      const closed = new Promise((resolve) => client.once('end', resolve));
      await operator.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
      await closed;

      await expect(client.query('select 1')).rejects.toThrow(/not queryable/);
      client.release(true);
      const { rows: again } = await pool.query<{ one: number }>('select 1 as one');
      expect(again).toEqual([{ one: 1 }]);
    } finally {
      await operator.end();
      await pool.end();
    }
  });
});

describe('an idle pooled connection', () => {
  it('is kept past node-postgres’s 10 s, as PostgREST keeps its own for 30 s', async () => {
    const pool = createPool({ connectionString: databaseUrl, max: 1 });
    try {
      const backend = () => pool.query<{ pid: number }>('select pg_backend_pid() as pid');
      const first = await backend();
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      const later = await backend();
      // The same backend: no new connection, handshake or cold catalog caches for the next request.
      expect(later.rows[0]?.pid).toBe(first.rows[0]?.pid);
    } finally {
      await pool.end();
    }
  }, 20_000);
});
