import type { FunctionSchedule } from '../project';

/**
 * Supabase Cron's stand-in: hosted, a `cron.schedule` job calls `net.http_post` (pg_net) on the function's
 * URL with the service-role key; the embedded Postgres has neither extension, so the gateway makes the same
 * call on the same interval. A failed call is logged and the next one comes as planned, as a cron job's
 * failure is recorded in `cron.job_run_details` and changes nothing else. One difference, on purpose: a call
 * that is due while the job's last call is still answering is skipped (pg_net would send it anyway), so a
 * slow function does not pile calls up on a laptop; functions must be safe to overlap all the same.
 */

export interface ScheduleFailure {
  job: string;
  reason: string;
}

export interface RunningSchedules {
  /** Stops the timers and cancels the calls under way. */
  stop(): Promise<void>;
}

export function startSchedules(options: {
  schedules: Record<string, FunctionSchedule>;
  apiUrl: string;
  serviceRoleKey: string;
  onFailure?: (failure: ScheduleFailure) => void;
}): RunningSchedules {
  const stopping = new AbortController();
  const underWay = new Set<Promise<void>>();
  const report =
    options.onFailure ?? ((failure) => console.error(`[schedule ${failure.job}] ${failure.reason}`));

  async function call(job: string, schedule: FunctionSchedule) {
    const path = `/functions/v1/${schedule.function}`;
    try {
      const response = await fetch(`${options.apiUrl}${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${options.serviceRoleKey}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(schedule.body ?? {}),
        signal: stopping.signal,
      });
      const answer = await response.text();
      if (!response.ok) report({ job, reason: `POST ${path} answered ${response.status}: ${answer}` });
    } catch (error) {
      if (stopping.signal.aborted) return;
      report({
        job,
        reason: `POST ${path} failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }

  for (const [job, schedule] of Object.entries(options.schedules)) {
    if (!Number.isInteger(schedule.everySeconds) || schedule.everySeconds < 1)
      throw new Error(`devstack.config.ts: schedule ${job}: everySeconds must be a whole number, at least 1`);
  }
  const timers = Object.entries(options.schedules).map(([job, schedule]) => {
    let running: Promise<void> | undefined;
    return setInterval(() => {
      if (running) return;
      const run = call(job, schedule);
      running = run;
      underWay.add(run);
      void run.finally(() => {
        underWay.delete(run);
        running = undefined;
      });
    }, schedule.everySeconds * 1000);
  });

  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      stopping.abort();
      await Promise.allSettled([...underWay]);
    },
  };
}
