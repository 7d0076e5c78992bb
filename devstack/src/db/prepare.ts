import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
/** Where the stack is installed (its Supabase CLI); the project's files come from its own root. */
const stackRoot = new URL('../../../', import.meta.url);
const supabaseCli = new URL('node_modules/.bin/supabase', stackRoot).pathname;

async function runSql(databaseUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Applies what the Supabase image has before any migration (roles, auth schema, publication). */
export async function applyBootstrap(databaseUrl: string) {
  await runSql(databaseUrl, await readFile(new URL('./bootstrap.sql', import.meta.url), 'utf8'));
  await runSql(databaseUrl, await readFile(new URL('./realtime.sql', import.meta.url), 'utf8'));
}

/** Applies the project's pending migrations with the real Supabase CLI, exactly as for a hosted project. */
export async function pushMigrations(databaseUrl: string, projectRoot: string = process.cwd()) {
  await run(supabaseCli, ['db', 'push', '--db-url', databaseUrl, '--yes'], {
    cwd: projectRoot,
    env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
  });
}

/** The project's `supabase/seed.sql`, when it has one. */
export async function loadSeed(databaseUrl: string, projectRoot: string = process.cwd()) {
  const seed = path.join(projectRoot, 'supabase/seed.sql');
  if (existsSync(seed)) await runSql(databaseUrl, await readFile(seed, 'utf8'));
}

/** Bootstrap, the project's migrations and (optionally) its seed: a database ready for the app. */
export async function prepareDatabase(
  databaseUrl: string,
  { seed = true, projectRoot = process.cwd() }: { seed?: boolean; projectRoot?: string } = {},
) {
  await applyBootstrap(databaseUrl);
  await pushMigrations(databaseUrl, projectRoot);
  if (seed) await loadSeed(databaseUrl, projectRoot);
}
