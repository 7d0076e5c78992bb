import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres } from '../../devstack/src/db/postgres';
import { waitUntil } from '../support/fault-stack';

/**
 * A throwaway database (about 40 MB) goes with the process that made it, however that process ends:
 * the start path runs in a child process (tests/support/stack-child.ts), which is signalled, crashes or
 * fails to start, and afterwards neither its data folder nor its Postgres server is left.
 */
const projects: Record<string, string> = {};

beforeAll(async () => {
  for (const name of ['second-project', 'broken-migration']) {
    projects[name] = await mkdtemp(path.join(tmpdir(), `devstack-${name}-`));
    await cp(`tests/fixtures/${name}`, projects[name], { recursive: true });
  }
});

afterAll(async () => {
  for (const root of Object.values(projects)) await rm(root, { recursive: true, force: true });
});

interface Child {
  pid: number;
  /** Resolves with the child's data folder and its postmaster's pid once the stack is up. */
  started: Promise<{ dataDir: string; postmaster: number }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  kill(signal: NodeJS.Signals): void;
}

function startChild(project: string, mode?: string): Child {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'tests/support/stack-child.ts', projects[project] ?? '', ...(mode ? [mode] : [])],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  const started = new Promise<{ dataDir: string; postmaster: number }>((resolve, reject) => {
    void exited.then(({ stderr: output }) =>
      reject(new Error(`the child exited before starting: ${output}`)),
    );
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{"dataDir"')) return;
      const { dataDir } = JSON.parse(line) as { dataDir: string };
      const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      resolve({ dataDir, postmaster });
    });
  });
  return { pid: child.pid ?? 0, started, exited, kill: (signal) => child.kill(signal) };
}

/** Whether a process runs (a zombie, ended but not yet reaped by its new parent, does not). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = path.join('/proc', String(pid), 'stat');
  return !existsSync(stat) || readFileSync(stat, 'utf8').split(') ')[1]?.[0] !== 'Z';
}

/** The server ends on its own once told to: shut down in immediate mode, it exits just after its lock file goes. */
const serverEnded = (postmaster: number) =>
  waitUntil(() => !isRunning(postmaster), 'the Postgres server to end');

/** Throwaway folders whose owner (the process that made them) is `pid`. */
function foldersOwnedBy(pid: number): string[] {
  return readdirSync(tmpdir())
    .filter((name) => name.startsWith('coinvault-pg-'))
    .filter((name) => {
      const owner = path.join(tmpdir(), name, 'owner.pid');
      return existsSync(owner) && readFileSync(owner, 'utf8') === String(pid);
    });
}

describe('a stack leaves no throwaway database behind', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`removes its data folder and stops Postgres when stopped with ${signal}`, async () => {
      const child = startChild('second-project');
      const { dataDir, postmaster } = await child.started;
      expect(existsSync(dataDir)).toBe(true);
      child.kill(signal);
      await child.exited;
      expect(existsSync(path.dirname(dataDir))).toBe(false);
      await serverEnded(postmaster);
    });
  }

  it('removes its data folder and stops Postgres when the start path crashes (an uncaught error)', async () => {
    const child = startChild('second-project', 'crash');
    const { dataDir, postmaster } = await child.started;
    const { code, stderr } = await child.exited;
    expect(code).toBe(1);
    expect(stderr).toContain('the start path crashed');
    expect(existsSync(path.dirname(dataDir))).toBe(false);
    await serverEnded(postmaster);
  });

  it('removes its data folder when the start fails after Postgres is up (a failing migration)', async () => {
    const child = startChild('broken-migration');
    await expect(child.started).rejects.toThrow(/no_such_table/);
    const { code } = await child.exited;
    expect(code).not.toBe(0);
    expect(foldersOwnedBy(child.pid)).toEqual([]);
  });

  it('has the next start sweep the folder and server of a process killed with SIGKILL', async () => {
    const child = startChild('second-project');
    const { dataDir, postmaster } = await child.started;
    child.kill('SIGKILL');
    await child.exited;
    // SIGKILL runs no listener: the folder and the server outlive the process until the next start.
    expect(existsSync(dataDir)).toBe(true);
    const next = await startPostgres();
    try {
      expect(existsSync(path.dirname(dataDir))).toBe(false);
      await serverEnded(postmaster);
    } finally {
      await next.stop();
    }
  });
});
