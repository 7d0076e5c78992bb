import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';

/**
 * CPU time spent by processes, in milliseconds: on a shared machine wall-clock figures follow the
 * machine's load, while the CPU a process needed for a piece of work does not (much).
 */

const ticksPerSecond = 100;

/** User + system CPU of a process so far (and, with `children`, of its waited-for children), in ms. */
export async function processCpuMs(pid: number, children = false): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at field 3 (state).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((index) => Number(fields[index] ?? 0));
    const ticks = (utime ?? 0) + (stime ?? 0) + (children ? (cutime ?? 0) + (cstime ?? 0) : 0);
    return (ticks * 1000) / ticksPerSecond;
  } catch {
    return 0; // The process has ended.
  }
}

/**
 * CPU of a Postgres instance so far, in ms: in total (the postmaster, its ended children and its live
 * ones) and per kind of live backend (`application_name`, else `backend_type`), so a bench can say what
 * the database spent on which client.
 */
export async function postgresCpuMs(dataDir: string, pool: pg.Pool) {
  const postmaster = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const { rows } = await pool.query<{ pid: number; kind: string }>(
    `select pid, coalesce(nullif(application_name, ''), backend_type) as kind from pg_stat_activity`,
  );
  const byKind: Record<string, number> = {};
  let live = 0;
  for (const { pid, kind } of rows) {
    const cpu = await processCpuMs(pid);
    byKind[kind] = (byKind[kind] ?? 0) + cpu;
    live += cpu;
  }
  return { total: (await processCpuMs(postmaster, true)) + live, byKind };
}
