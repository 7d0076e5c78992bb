import { createPool } from '../db/pool';

/** How long a transaction still invisible waits before it is asked about again. */
const recheckMs = 2;

/**
 * Whether each of `xids` (32-bit, as logical replication gives them) is seen by `snapshot`
 * (`pg_current_snapshot()` as text, `xmin:xmax:xip,…`, 64-bit ids): a committed transaction is, once it
 * is below the snapshot's xmax and not among its in-progress ids.
 */
export function visibleIn(snapshot: string, xids: readonly number[]): boolean[] {
  const [, xmaxText = '0', xipText = ''] = snapshot.split(':');
  const xmax = BigInt(xmaxText);
  const inProgress = new Set(xipText === '' ? [] : xipText.split(',').map(BigInt));
  const epoch = xmax >> 32n;
  return xids.map((xid) => {
    // The 64-bit id nearest xmax: a recent transaction is within 2^31 of it, on either side.
    let full = (epoch << 32n) | BigInt(xid);
    if (full - xmax > 1n << 31n) full -= 1n << 32n;
    else if (xmax - full > 1n << 31n) full += 1n << 32n;
    // At or past xmax it was still running when the snapshot was taken.
    return full < xmax && !inProgress.has(full);
  });
}

/**
 * Holds a committed transaction back until other sessions can see it. Postgres writes and flushes a
 * commit (which is when logical replication may stream it) before it takes the transaction out of the
 * running ones; until then a new snapshot does not see its rows. A client that reads again on a message
 * (what the app does with every broadcast) could read the state from before the change and then wait
 * forever for another message. The window is microseconds when the committing backend runs on, but on a
 * busy machine waking the replication sender can deschedule the backend for tens of milliseconds, and
 * here the whole path (stream, gateway, browser, REST) is on one machine: measured, the app's re-read
 * reached Postgres before the commit was visible in 2 of 10 runs of the portfolio journey. On Supabase
 * the path crosses the network twice, far longer than the window. One snapshot query answers for every
 * transaction waiting at the time.
 */
export function createVisibilityGate(databaseUrl: string) {
  const pool = createPool({
    connectionString: databaseUrl,
    max: 1,
    // Kept open: a new connection per quiet spell would add its start-up to the next delivery.
    idleTimeoutMillis: 0,
    application_name: 'coinvault-realtime-visibility',
  });
  const waiting = new Map<number, (() => void)[]>();
  let asking = false;

  async function ask() {
    if (asking || waiting.size === 0) return;
    asking = true;
    const xids = [...waiting.keys()];
    let visible: boolean[];
    try {
      const { rows } = await pool.query<{ snapshot: string }>(
        'select pg_current_snapshot()::text as snapshot',
      );
      visible = visibleIn(rows[0]?.snapshot ?? '', xids);
    } catch {
      // The database cannot answer (restarting): the stream ends too and its channels are told of the
      // gap, so holding these back would only delay what is already late.
      visible = xids.map(() => true);
    }
    xids.forEach((xid, index) => {
      if (!visible[index]) return;
      for (const resolve of waiting.get(xid) ?? []) resolve();
      waiting.delete(xid);
    });
    asking = false;
    // Transactions that came while the question was out are asked about at once; those still running,
    // a moment later.
    if ([...waiting.keys()].some((xid) => !xids.includes(xid))) void ask();
    else if (waiting.size > 0) setTimeout(() => void ask(), recheckMs);
  }

  return {
    /** Settles once a new snapshot sees transaction `xid` (committed, streamed by logical replication). */
    visible(xid: number): Promise<void> {
      return new Promise((resolve) => {
        const waiters = waiting.get(xid);
        if (waiters) waiters.push(resolve);
        else waiting.set(xid, [resolve]);
        void ask();
      });
    },
    close: () => pool.end(),
  };
}
