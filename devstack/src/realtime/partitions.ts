import type pg from 'pg';

/** How often the day partitions of `realtime.messages` are looked after (Supabase Realtime's janitor runs every few hours). */
export const partitionsMaintenanceMs = 60 * 60 * 1000;

/**
 * Keeps the day partitions of `realtime.messages` as Supabase Realtime's janitor does: from yesterday to
 * three days ahead, none older than three days (`realtime.local_maintain_messages_partitions`). Runs now
 * and then hourly; a failure is logged and tried again at the next turn.
 */
export function maintainMessagesPartitions(pool: pg.Pool) {
  let done = Promise.resolve();
  const maintain = () => {
    done = pool
      .query('select realtime.local_maintain_messages_partitions()')
      .then(() => undefined)
      .catch((error: unknown) => {
        console.error('realtime: could not maintain the messages partitions', (error as Error).message);
      });
  };
  maintain();
  const timer = setInterval(maintain, partitionsMaintenanceMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await done;
    },
  };
}
