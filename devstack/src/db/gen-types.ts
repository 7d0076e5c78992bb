/**
 * Writes supabase/types/database.ts (read by the app and the Edge Functions) from a freshly migrated throwaway
 * database with the real Supabase CLI. With --check it only compares, and fails when the committed file is stale.
 * The database is a copy of the unseeded template the fault tests start from, so the migrations run once for
 * both (and not at all when the template is already made).
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as prettier from 'prettier';
import { startPostgres } from './postgres';
import { projectTemplate } from './template';

const run = promisify(execFile);
const root = new URL('../../../', import.meta.url);
const target = new URL('supabase/types/database.ts', root);
const check = process.argv.includes('--check');

const postgres = await startPostgres({ copyOf: await projectTemplate(fileURLToPath(root), false) });
try {
  const { stdout } = await run(
    new URL('node_modules/.bin/supabase', root).pathname,
    ['gen', 'types', 'typescript', '--db-url', postgres.url, '--schema', 'public'],
    { cwd: root.pathname, maxBuffer: 16 * 1024 * 1024 },
  );
  // The CLI may print notices (for example about TLS) before the code.
  const code = stdout.slice(stdout.indexOf('export type Json'));
  const generated = await prettier.format(code, { parser: 'typescript', singleQuote: true, printWidth: 110 });
  const current = await readFile(target, 'utf8').catch(() => '');
  if (check) {
    if (current !== generated) {
      console.error('supabase/types/database.ts is stale: run `npm run db:types` and commit the result.');
      process.exitCode = 1;
    } else {
      console.log('supabase/types/database.ts matches the migrations.');
    }
  } else {
    await writeFile(target, generated);
    console.log('wrote supabase/types/database.ts');
  }
} finally {
  await postgres.stop();
}
