import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { applyBootstrap } from '../../devstack/src/db/prepare';

const supabaseDir = new URL('../../supabase/', import.meta.url).pathname;

/**
 * The schema files in the order `supabase db diff` applies them: `[db.migrations] schema_paths` of
 * supabase/config.toml, each entry a file or a `*.sql` pattern (its matches in name order), later repeats
 * of a file skipped.
 */
export async function schemaFiles(): Promise<string[]> {
  const config = await readFile(path.join(supabaseDir, 'config.toml'), 'utf8');
  const section = /^\[db\.migrations\]$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(config)?.[1] ?? '';
  const list = /^schema_paths\s*=\s*\[([\s\S]*?)\]/m.exec(section)?.[1];
  if (list === undefined) throw new Error('supabase/config.toml has no [db.migrations] schema_paths');
  const files: string[] = [];
  for (const [quoted] of list.matchAll(/"[^"]+"/g)) {
    const resolved = path.join(supabaseDir, quoted.slice(1, -1));
    const base = path.basename(resolved);
    if (!base.includes('*')) {
      files.push(resolved);
      continue;
    }
    const pattern = new RegExp(`^${base.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    const folder = path.dirname(resolved);
    const matches = (await readdir(folder)).filter((name) => pattern.test(name)).sort();
    files.push(...matches.map((name) => path.join(folder, name)));
  }
  return [...new Set(files)];
}

export async function migrationFiles(): Promise<string[]> {
  const folder = path.join(supabaseDir, 'migrations');
  return (await readdir(folder))
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => path.join(folder, name));
}

/**
 * The schema file that defines an object of a catalog report (`column public.t.c`, `function private.f()`):
 * the file creating its table, view, type or function; undefined for an object no file mentions yet.
 */
export async function schemaFileDefining(object: string): Promise<string | undefined> {
  const owner =
    /^(?:policy|trigger|constraint) .+ on ([\w.]+)$/.exec(object)?.[1] ??
    /^publication \S+ table ([\w.]+)$/.exec(object)?.[1] ??
    /^column (\w+\.\w+)\.\w+$/.exec(object)?.[1] ??
    /^(?:table|view|sequence|type|function|index) ([\w.]+)/.exec(object)?.[1];
  if (!owner) return undefined;
  const created = new RegExp(
    `^create (?:or replace )?(?:table|view|type|function|(?:unique )?index) (?:${owner.replace('.', '\\.')}|${owner.split('.')[1]})\\b`,
    'm',
  );
  for (const file of await schemaFiles()) {
    if (created.test(await readFile(file, 'utf8'))) return path.relative(path.dirname(supabaseDir), file);
  }
  return undefined;
}

/** Runs each file in its own transaction, as the Supabase CLI does; an error names the file. */
async function applyFiles(databaseUrl: string, files: string[]) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const file of files) {
      const sql = await readFile(file, 'utf8');
      try {
        await client.query(`begin;\n${sql}\n;commit;`);
      } catch (error) {
        await client.query('rollback');
        throw new Error(`${path.relative(supabaseDir, file)}: ${(error as Error).message}`, { cause: error });
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * A new database on the server of `serverUrl`, with the platform bootstrap (roles, auth schema,
 * publication) and then the given files; answers its connection string.
 */
export async function buildDatabase(serverUrl: string, name: string, files: string[]): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name} template template0`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await applyBootstrap(url.toString());
  await applyFiles(url.toString(), files);
  return url.toString();
}

export async function dropDatabase(serverUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}
