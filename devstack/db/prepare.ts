import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url);
const supabaseCli = new URL('node_modules/.bin/supabase', root).pathname;

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
  await runSql(databaseUrl, await readFile(new URL('devstack/db/bootstrap.sql', root), 'utf8'));
  await runSql(databaseUrl, await readFile(new URL('devstack/db/realtime.sql', root), 'utf8'));
}

/** Applies pending migrations with the real Supabase CLI, exactly as for a hosted project. */
export async function pushMigrations(databaseUrl: string) {
  await run(supabaseCli, ['db', 'push', '--db-url', databaseUrl, '--yes'], {
    cwd: root.pathname,
    env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
  });
}

export async function loadSeed(databaseUrl: string) {
  await runSql(databaseUrl, await readFile(new URL('supabase/seed.sql', root), 'utf8'));
}

/** Bootstrap, migrations and (optionally) the seed: a database ready for the app. */
export async function prepareDatabase(databaseUrl: string, { seed = true } = {}) {
  await applyBootstrap(databaseUrl);
  await pushMigrations(databaseUrl);
  if (seed) await loadSeed(databaseUrl);
}
