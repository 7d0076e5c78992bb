import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, inject, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url);

interface AdvisorFinding {
  name: string;
  level: string;
  detail: string;
}

async function advisorFindings(type: 'security' | 'performance'): Promise<string[]> {
  const { stdout } = await run(
    new URL('node_modules/.bin/supabase', root).pathname,
    [
      'db',
      'advisors',
      '--db-url',
      inject('databaseUrl'),
      '--type',
      type,
      '--level',
      'info',
      '--output-format',
      'json',
    ],
    { cwd: root.pathname, env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' } },
  );
  const { results } = JSON.parse(stdout) as { results: AdvisorFinding[] };
  return results.map(({ name, level, detail }) => `${level} ${name}: ${detail}`);
}

it("Supabase's security advisors find nothing on the migrated database", async () => {
  expect(await advisorFindings('security')).toEqual([]);
});

it("Supabase's performance advisors find nothing but indexes a fresh database has not used yet", async () => {
  const findings = await advisorFindings('performance');
  expect(findings.filter((finding) => !finding.startsWith('INFO unused_index:'))).toEqual([]);
});
