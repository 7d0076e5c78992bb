import pg from 'pg';
import type { CommittedChange } from './change-source';
import type { SubscriberCheck } from './registry';
import type { ColumnFilter } from './subscriptions';

export interface VisibleRow {
  check_index: number;
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
  columns: { name: string; type: string }[];
}

/**
 * Connections for the checks: changes of consecutive transactions are checked at once, each on its own
 * connection, while deliveries still leave in commit order.
 */
export const checkConnections = 4;
/** Attempts of a failing check before its change is skipped on purpose (its subscribers told of the gap). */
export const checkAttempts = 6;
const firstRetryMs = 100;
const maxRetryMs = 2_000;

function quoteIdentifier(name: string) {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A check that failed every attempt: its change is skipped, and its subscribers told so. */
export class CheckFailedError extends Error {}

/**
 * Row-level security of replicated changes, decided by Postgres: `realtime.apply_rls` checks one change
 * for every subscriber at once (walrus' design), as each subscriber's role and claims.
 */
export function createRlsChecker(databaseUrl: string) {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: checkConnections,
    application_name: 'coinvault-realtime-rls',
  });
  // A connection that dies (Postgres restarted, terminated) fails its check, which is retried on a new one.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  let closed = false;

  async function checkOnce(change: CommittedChange, checks: SubscriberCheck[]) {
    const { schema, table } = change.relation;
    const { rows } = await pool.query<VisibleRow>(
      'select check_index, record, old_record, columns from realtime.apply_rls($1::regclass, $2, $3, $4, $5, $6)',
      [
        `${quoteIdentifier(schema)}.${quoteIdentifier(table)}`,
        change.type,
        change.record,
        change.oldRecord,
        JSON.stringify(checks),
        change.xid,
      ],
    );
    return new Map(rows.map((row) => [row.check_index, row]));
  }

  /**
   * Which checks may see `change`, with their columns. A failure (a lost connection, a check that errs)
   * is retried with growing pauses; after `checkAttempts` failures, or once `stillWanted` says the
   * change no longer matters, it throws `CheckFailedError`.
   */
  async function check(
    change: CommittedChange,
    checks: SubscriberCheck[],
    stillWanted: () => boolean,
  ): Promise<Map<number, VisibleRow>> {
    let pause = firstRetryMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await checkOnce(change, checks);
      } catch (error) {
        if (closed || !stillWanted() || attempt >= checkAttempts) {
          throw new CheckFailedError(
            `the visibility check of a change failed ${attempt} times: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, maxRetryMs);
      }
    }
  }

  /**
   * Why a subscription's filters can never be applied to `schema.table` (unknown table or column, a
   * value of the wrong type), or null when they can: refused at join, so a bad filter never reaches the
   * checks that every subscriber's deliveries share.
   */
  async function filterProblem(schema: string, table: string | undefined, filters: ColumnFilter[]) {
    if (filters.length === 0) return null;
    if (!table || table === '*') return 'A filter needs a table';
    const { rows } = await pool.query<{ problem: string | null }>(
      'select realtime.filter_problem($1, $2, $3) as problem',
      [schema, table, JSON.stringify(filters)],
    );
    return rows[0]?.problem ?? null;
  }

  return {
    check,
    filterProblem,
    async close() {
      closed = true;
      await pool.end();
    },
  };
}

export type RlsChecker = ReturnType<typeof createRlsChecker>;
