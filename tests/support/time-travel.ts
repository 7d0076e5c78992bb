import pg from 'pg';

/**
 * Time passing for the waits of the protections (a saved destination's, the allowlist's switch-off, an
 * unfreeze's): the test moves the stored moments back, as the database owner, with triggers off for this
 * transaction only (`session_replication_role = replica`, which only a superuser may set). No production
 * path has a shortcut: the rules read the moments as they are. The browser journey uses the same helper.
 */
export async function moveBack(db: pg.Pool | pg.Client, statement: string, params: unknown[]): Promise<void> {
  const client = db instanceof pg.Pool ? await db.connect() : db;
  try {
    await client.query('begin');
    await client.query('set local session_replication_role = replica');
    await client.query(statement, params);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    if (client !== db) (client as pg.PoolClient).release();
  }
}

/** A saved destination's wait has passed. */
export const endDestinationWait = (db: pg.Pool | pg.Client, destinationId: string) =>
  moveBack(
    db,
    "update public.payout_destinations set usable_at = now() - interval '1 second' where id = $1",
    [destinationId],
  );
