import { createPool } from '../db/pool';
import type { CommittedChange } from './change-source';
import type { SubscriberCheck } from './registry';
import type { ColumnFilter } from './subscriptions';

export interface VisibleRow {
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
  columns: { name: string; type: string }[];
}

interface BatchRow extends VisibleRow {
  change_index: number;
  check_indexes: number[];
}

/**
 * Connections for the checks: while one batch is checked, the changes arriving meanwhile form the next
 * batch on another connection; deliveries still leave in commit order.
 */
export const checkConnections = 4;
/**
 * Changes checked in one query at most. Batches form by themselves: a change goes alone when a
 * connection is free and changes arrive slowly or no batch left within `batchWindowMs`; under load,
 * everything that arrived since the last batch left goes together (up to this).
 */
export const maxBatchChanges = 200;
/**
 * Least time between the starts of two batches while changes keep coming. A batch costs the database
 * a fixed part (about 0.3 ms per subscriber: switching to it and running its query) and a small part
 * per change and subscriber, so a free connection taking whatever had just arrived made batches of a
 * few changes at 700 changes/s, at 1.4 ms of database CPU per change; gathered over 100 ms, a batch
 * costs a third of that per change, for at most 100 ms of wait. After a quiet spell a change goes at once.
 */
export const batchWindowMs = 100;
/**
 * Changes arriving within one window from which the window holds them (100 changes/s): below that rate
 * a batch of one costs the database little in all, and holding each change up to 100 ms would only add
 * delay (at 50 changes/s the realtime-latency bench's p95 rose from under 100 ms to 115).
 */
export const batchedArrivals = 10;

/** Whether the first waiting change waits for the batch window instead of going to a free connection now. */
export function waitsForWindow(state: {
  /** Checked on its own after a failure: never held for others. */
  alone: boolean;
  waiting: number;
  sinceLastBatchMs: number;
  /** Changes that arrived within the last `batchWindowMs`. */
  recentArrivals: number;
}): boolean {
  return (
    !state.alone &&
    state.waiting < maxBatchChanges &&
    state.sinceLastBatchMs < batchWindowMs &&
    state.recentArrivals >= batchedArrivals
  );
}
/** Attempts of a failing check before its change is skipped on purpose (its subscribers told of the gap). */
export const checkAttempts = 6;
const firstRetryMs = 100;
const maxRetryMs = 2_000;

function quoteIdentifier(name: string) {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A check that failed every attempt: its change is skipped, and its subscribers told so. */
export class CheckFailedError extends Error {}

interface PendingCheck {
  change: CommittedChange;
  checks: SubscriberCheck[];
  stillWanted: () => boolean;
  resolve(visible: Map<number, VisibleRow>): void;
  reject(error: Error): void;
  attempts: number;
  /** After a failure a change is checked on its own, so one that cannot be checked fails no other. */
  alone: boolean;
}

/**
 * Row-level security of replicated changes, decided by Postgres: `realtime.apply_rls_batch` checks a
 * batch of changes for all their subscribers in one query (walrus checks one change for all subscribers;
 * this goes one step further), switching to each subscriber's role and claims once per batch.
 */
export function createRlsChecker(databaseUrl: string) {
  // A connection that dies (Postgres restarted, terminated) fails its batch, which is retried on a new one.
  const pool = createPool({
    connectionString: databaseUrl,
    max: checkConnections,
    application_name: 'coinvault-realtime-rls',
  });
  let closed = false;
  let running = 0;
  const waiting: PendingCheck[] = [];
  let lastBatchAt = -Infinity;
  /** When the changes of the last `batchWindowMs` arrived, oldest first. */
  const arrivals: number[] = [];
  let windowTimer: NodeJS.Timeout | undefined;

  async function checkBatch(batch: PendingCheck[]) {
    // Identical subscriber checks (same token and filters) of different changes are sent once.
    const checks: SubscriberCheck[] = [];
    const positions = new Map<string, number>();
    const changes = batch.map(({ change, checks: changeChecks }) => ({
      entity: `${quoteIdentifier(change.relation.schema)}.${quoteIdentifier(change.relation.table)}`,
      action: change.type,
      record: change.record,
      old_record: change.oldRecord,
      xid: change.xid,
      checks: changeChecks.map((check) => {
        let position = positions.get(check.key);
        if (position === undefined) {
          position = checks.push(check) - 1;
          positions.set(check.key, position);
        }
        return position;
      }),
    }));
    const { rows } = await pool.query<BatchRow>(
      'select change_index, check_indexes, record, old_record, columns from realtime.apply_rls_batch($1, $2)',
      [JSON.stringify(changes), JSON.stringify(checks.map(({ claims, filters }) => ({ claims, filters })))],
    );
    const visible = batch.map(() => new Map<number, VisibleRow>());
    for (const { change_index, check_indexes, record, old_record, columns } of rows) {
      const local = changes[change_index]?.checks ?? [];
      // One object for the checks that see the same columns, so their data is encoded once.
      const row: VisibleRow = { record, old_record, columns };
      for (const position of check_indexes) visible[change_index]?.set(local.indexOf(position), row);
    }
    return visible;
  }

  function dispatch() {
    while (running < checkConnections && waiting.length > 0) {
      const first = waiting[0] as PendingCheck;
      const now = performance.now();
      while ((arrivals[0] ?? now) < now - batchWindowMs) arrivals.shift();
      const sinceLastBatch = now - lastBatchAt;
      const { alone } = first;
      if (
        waitsForWindow({
          alone,
          waiting: waiting.length,
          sinceLastBatchMs: sinceLastBatch,
          recentArrivals: arrivals.length,
        })
      ) {
        windowTimer ??= setTimeout(() => {
          windowTimer = undefined;
          dispatch();
        }, batchWindowMs - sinceLastBatch);
        return;
      }
      lastBatchAt = performance.now();
      const size = first.alone ? 1 : waiting.findIndex((pending, index) => index > 0 && pending.alone);
      const batch = waiting.splice(0, size === -1 ? maxBatchChanges : Math.min(size, maxBatchChanges));
      running++;
      void checkBatch(batch)
        .then(
          (visible) =>
            batch.forEach((pending, index) => pending.resolve(visible[index] as Map<number, VisibleRow>)),
          (error: unknown) => batch.forEach((pending) => retryLater(pending, error)),
        )
        .finally(() => {
          running--;
          dispatch();
        });
    }
  }

  function retryLater(pending: PendingCheck, error: unknown) {
    pending.attempts++;
    if (closed || !pending.stillWanted() || pending.attempts >= checkAttempts) {
      pending.reject(
        new CheckFailedError(
          `the visibility check of a change failed ${pending.attempts} times: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      return;
    }
    pending.alone = true;
    const pause = Math.min(firstRetryMs * 2 ** (pending.attempts - 1), maxRetryMs);
    setTimeout(() => {
      waiting.unshift(pending);
      dispatch();
    }, pause);
  }

  /**
   * Which checks may see `change` (by their index in `checks`), with their columns. A failure (a lost
   * connection, a check that errs) is retried with growing pauses; after `checkAttempts` failures, or
   * once `stillWanted` says the change no longer matters, it rejects with `CheckFailedError`.
   */
  function check(
    change: CommittedChange,
    checks: SubscriberCheck[],
    stillWanted: () => boolean,
  ): Promise<Map<number, VisibleRow>> {
    return new Promise((resolve, reject) => {
      waiting.push({ change, checks, stillWanted, resolve, reject, attempts: 0, alone: false });
      arrivals.push(performance.now());
      dispatch();
    });
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
      clearTimeout(windowTimer);
      await pool.end();
    },
  };
}

export type RlsChecker = ReturnType<typeof createRlsChecker>;
