import type pg from 'pg';

export interface Caller {
  role: string;
  /** The verified JWT claims as JSON, for `auth.uid()`, `auth.jwt()` and policies. */
  claims: string;
  method: string;
  path: string;
  /** The request's schema, then `[api] extra_search_path`, quoted as PostgREST sets it (Query/PreQuery.hs). */
  searchPath: string;
}

// Named, so Postgres parses it once per connection. The last column applies the role's own settings
// (`alter role anon set statement_timeout = '3s'`) to this transaction, as PostgREST 12 does for the role
// it impersonates (PostgREST's `Config/Database.hs`, "role settings"): `set role` alone ignores them.
const callerSettings = {
  name: 'devstack-rest-caller-settings',
  text: `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
    set_config('request.method', $3, true), set_config('request.path', $4, true),
    set_config('search_path', $5, true),
    (select count(set_config(split_part(setting, '=', 1), substr(setting, strpos(setting, '=') + 1), true))
       from pg_catalog.pg_roles cross join unnest(rolconfig) as setting where rolname = $1)`,
};

/**
 * Runs `work` as PostgREST runs a request, so Postgres (grants, row-level security) decides what the
 * caller may do: `begin`, the caller's role and claims with `set_config(..., true)`, the statement, then
 * `commit` (or `rollback`). The pool pipelines (`pipeline: true`): begin, settings and statement leave
 * in one write, and a read's commit with them, so a read costs one round trip to Postgres. `work` must
 * send its statement before its first `await`.
 */
export async function runAsCaller<T>(
  pool: pg.Pool,
  caller: Caller,
  { mode, rollback = false }: { mode: 'read' | 'write'; rollback?: boolean },
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  // pg flushes each query on its own; corking the socket around the batch makes it one write.
  const socket = client.connection.stream;
  socket.cork();
  const begin = client.query(mode === 'read' ? 'begin read only' : 'begin read write');
  const settings = client.query({
    ...callerSettings,
    values: [caller.role, caller.claims, caller.method, caller.path, caller.searchPath],
  });
  const outcome = work(client);
  const readCommit = mode === 'read' ? client.query('commit') : undefined;
  socket.uncork();
  // Handlers on every step at once: a failure in one must not surface as an unhandled rejection.
  const allSettled = Promise.allSettled([begin, settings, outcome, readCommit]);
  let broken: Error | undefined;
  try {
    await begin;
    await settings;
    const result = await outcome;
    if (readCommit) await readCommit;
    else await client.query(rollback ? 'rollback' : 'commit');
    return result;
  } catch (error) {
    await allSettled;
    try {
      await client.query('rollback');
    } catch (rollbackError) {
      broken = rollbackError as Error;
    }
    throw error;
  } finally {
    client.release(broken);
  }
}
