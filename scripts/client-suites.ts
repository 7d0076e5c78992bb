import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type RunningStack } from '../devstack/src/stack';

/**
 * Runs the postgrest-js and auth-js test suites of a supabase-js monorepo copy against the local stack and
 * prints, per suite, how many cases pass, are refused by name (the stack's 4xx naming what it does not
 * support) and are answered wrongly. Nothing of the copy is committed or kept: each suite is copied to a
 * temporary folder, its own Supabase project (`test/supabase`: config.toml, migrations, seed) is loaded into
 * a throwaway stack, and its tests run with this repository's Vitest (Jest's API: `jest` is `vi`).
 *
 *   SUPABASE_JS_DIR=/path/to/supabase-js npm run client-suites   (CLIENT_SUITES=auth-js: that suite only)
 *
 * The suites call `http://localhost:54321` without an `apikey`, as `supabase start`'s Kong allows (it passes
 * a keyless request on as anon: supabase/cli apps/cli-go/internal/start/start.go); hosted Supabase and this
 * stack refuse it, so a stand-in for that Kong on 54321 adds the anon key to requests that carry none.
 */

interface Suite {
  name: string;
  /** The package inside the monorepo. */
  folder: string;
  /** Text replaced in the copy's Supabase project (`test/supabase/…`) so that this stack can load it. */
  adapt: { file: string; from: string | RegExp; to: string }[];
  /** Test files the suite's own CI leaves out, or that need another server (Docker-only configurations). */
  exclude: string[];
  /** The suite's own setup before its stack starts (its CI's steps), run in the package's copy. */
  prepare?: string[];
  /**
   * `[section] key = true` switches of its config.toml turned off, for features the stack does not implement
   * (it refuses them by name at start); their cases then meet hosted's answer for a disabled feature.
   */
  switchOff?: [section: string, key: string][];
  /** Test packages of the suite this repository lacks, installed from the registry into the run's folder. */
  testPackages?: string[];
}

/** Turns `key = true` into `key = false` inside `[section]` of a TOML text. */
function switchOff(toml: string, switches: [string, string][]): string {
  let section = '';
  return toml
    .split('\n')
    .map((line) => {
      const header = line.match(/^\[([^\]]+)\]/);
      if (header) section = header[1] ?? '';
      const off = switches.some(([name, key]) => name === section && line.startsWith(`${key} = true`));
      return off ? line.replace('= true', '= false') : line;
    })
    .join('\n');
}

/** The Supabase CLI this repository runs (3.x) reads `[inbucket]` as `[local_smtp]`. */
const cliConfig = { file: 'test/supabase/config.toml', from: /^\[inbucket\]/m, to: '[local_smtp]' };

const suites: Suite[] = [
  {
    name: 'postgrest-js',
    folder: 'packages/core/postgrest-js',
    adapt: [
      cliConfig,
      // The embedded Postgres has no PostGIS: the one geometry column becomes text (its GeoJSON cases fail).
      {
        file: 'test/supabase/migrations/00000000000000_schema.sql',
        from: 'create extension if not exists postgis schema extensions;',
        to: '',
      },
      {
        file: 'test/supabase/migrations/00000000000000_schema.sql',
        from: 'extensions.geometry(POINT, 4326)',
        to: 'text',
      },
    ],
    exclude: ['test/v12/**'],
  },
  {
    name: 'auth-js',
    folder: 'packages/core/auth-js',
    adapt: [cliConfig],
    exclude: ['test/docker-tests/**', 'test/**/*.browser.test.ts'],
    testPackages: ['jsonwebtoken@^9.0.0', 'jest-mock-server@^0.1.0', '@faker-js/faker@^9.9.0'],
    // Its RS256 signing key (`[auth] signing_keys_path`), made fresh per run and never committed upstream.
    prepare: ['node', 'test/generate-signing-keys.js'],
    switchOff: [
      ['auth', 'enable_anonymous_sign_ins'],
      ['auth.sms', 'enable_signup'],
      ['auth.mfa.phone', 'enroll_enabled'],
      ['auth.mfa.phone', 'verify_enabled'],
      ['auth.mfa.web_authn', 'enroll_enabled'],
      ['auth.mfa.web_authn', 'verify_enabled'],
      ['auth.passkey', 'enabled'],
      ['auth.external.google', 'enabled'],
      ['auth.oauth_server', 'enabled'],
    ],
  },
];

/**
 * The tests' setup: Jest's API (`jest` is `vi`), and a record of the cases in which the stack refused a call
 * by name (a 4xx naming what the local stack does not support, or hosted's code for a feature switched off
 * for the run), told from answers answered wrongly.
 */
function setupSource(refusalsFile: string): string {
  return `import { appendFileSync } from 'node:fs';
import { expect, vi } from 'vitest';
Object.assign(globalThis, { jest: vi });
const fetchOfNode = globalThis.fetch;
globalThis.fetch = async (...args) => {
  const response = await fetchOfNode(...args);
  const text = response.status >= 400 ? await response.clone().text() : '';
  const refusal = text.match(/Unsupported (by the local stack|Auth endpoint)[^"]*|not supported by the local stack|not_implemented|_disabled"|_not_enabled"/);
  if (refusal) {
    appendFileSync(${JSON.stringify(refusalsFile)}, (expect.getState().currentTestName ?? '').replaceAll(' > ', ' ') + '\\t' + refusal[0] + '\\n');
  }
  return response;
};
`;
}

interface VitestReport {
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

interface SuiteFigures {
  suite: string;
  passed: number;
  refused: number;
  wrong: number;
  /** Files that could not load (a missing package, a missing key file): their cases never ran. */
  notLoaded: string[];
  /** Why the suite did not run at all. */
  failedToStart?: string;
  wrongCases: string[];
  /** Each refused case with what the stack refused. */
  refusedCases: string[];
}

/** `supabase start`'s Kong on its port, as far as these suites need it: keyless requests go on as anon. */
async function kongStandIn(stack: RunningStack): Promise<Server> {
  const target = new URL(stack.apiUrl);
  const server = createServer((incoming, outgoing) => {
    const headers: Record<string, string | string[] | undefined> = { ...incoming.headers, host: target.host };
    if (headers.apikey === undefined) headers.apikey = stack.anonKey;
    const forwarded = request(
      { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(54321, '127.0.0.1', resolve);
  });
  return server;
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

async function runSuite(monorepo: string, suite: Suite, details: string[]): Promise<SuiteFigures> {
  const figures: SuiteFigures = {
    suite: suite.name,
    passed: 0,
    refused: 0,
    wrong: 0,
    notLoaded: [],
    wrongCases: [],
    refusedCases: [],
  };
  const work = await mkdtemp(path.join(tmpdir(), `client-suite-${suite.name}-`));
  let stack: RunningStack | undefined;
  let kong: Server | undefined;
  try {
    // The package keeps its place in the monorepo, whose base tsconfig its own extends.
    const root = path.join(work, suite.folder);
    await cp(path.join(monorepo, suite.folder), root, { recursive: true });
    await cp(path.join(monorepo, 'tsconfig.base.json'), path.join(work, 'tsconfig.base.json'));
    await symlink(path.resolve('node_modules'), path.join(root, 'node_modules'));
    for (const { file, from, to } of suite.adapt) {
      const text = await readFile(path.join(root, file), 'utf8');
      await writeFile(path.join(root, file), text.replace(from, to));
    }
    // Resolved by alias: the copy's node_modules is this repository's, which must not change.
    const packageAliases: Record<string, string> = {};
    const deps = path.join(work, 'test-packages');
    if (suite.testPackages) {
      const installArgs = ['install', '--prefix', deps, '--no-save', '--no-audit', '--no-fund'];
      if ((await run('npm', [...installArgs, ...suite.testPackages], work)) !== 0) {
        figures.failedToStart = `npm could not install ${suite.testPackages.join(', ')}`;
        return figures;
      }
      for (const spec of suite.testPackages) {
        const name = spec.slice(0, spec.lastIndexOf('@'));
        packageAliases[name] = path.join(deps, 'node_modules', name);
      }
    }
    if (suite.switchOff) {
      const config = path.join(root, 'test/supabase/config.toml');
      await writeFile(config, switchOff(await readFile(config, 'utf8'), suite.switchOff));
    }
    if (suite.prepare) {
      const [command = '', ...args] = suite.prepare;
      if ((await run(command, args, root)) !== 0) {
        figures.failedToStart = `${suite.prepare.join(' ')} failed`;
        return figures;
      }
    }
    try {
      stack = await startStack({ projectRoot: path.join(root, 'test') });
    } catch (error) {
      // The CLI's own output (on the error) says why a migration or setting failed.
      const output = String((error as { stderr?: unknown }).stderr ?? (error as Error).message ?? error);
      figures.failedToStart = output
        .split('\n')
        .filter((line) => /error|unsupported|not (available|supported)|no longer/i.test(line))
        .filter((line) => !line.includes('--debug'))
        .slice(0, 2)
        .join(' / ');
      figures.failedToStart ||=
        output
          .trim()
          .split('\n')
          .filter((line) => !line.includes('--debug'))
          .pop() ?? 'unknown';
      return figures;
    }
    kong = await kongStandIn(stack);
    const refusalsFile = path.join(work, 'refusals.txt');
    await writeFile(path.join(work, 'jest-api.ts'), setupSource(refusalsFile));
    // Files run one after another in path order, as the suites' own Jest sequencer runs them (their cases
    // share one database, so the order is part of what they expect).
    await writeFile(
      path.join(root, 'vitest.client-suite.config.mts'),
      [
        "import { BaseSequencer } from 'vitest/node';",
        'class PathOrder extends BaseSequencer {',
        '  async sort(files) { return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId)); }',
        '}',
        `export default { test: ${JSON.stringify({
          root,
          include: ['test/**/*.test.ts'],
          exclude: suite.exclude,
          globals: true,
          environment: 'node',
          alias: { ...packageAliases, jest: path.join(work, 'jest-api.ts') },
          setupFiles: [path.join(work, 'jest-api.ts')],
          testTimeout: 30_000,
          fileParallelism: false,
        }).replace(/}$/, ', sequence: { sequencer: PathOrder } }')} };`,
      ].join('\n'),
    );

    const reportFile = path.join(work, 'report.json');
    await run(
      path.resolve('node_modules/.bin/vitest'),
      [
        'run',
        '--config',
        path.join(root, 'vitest.client-suite.config.mts'),
        '--reporter=json',
        `--outputFile=${reportFile}`,
      ],
      root,
      // `require` in a test file finds the installed packages this way (imports through the aliases).
      { ...process.env, NODE_PATH: path.join(deps, 'node_modules') },
    );
    if (!existsSync(reportFile)) {
      figures.failedToStart = 'Vitest wrote no report';
      return figures;
    }
    const report = JSON.parse(await readFile(reportFile, 'utf8')) as VitestReport;
    // Each line: the case, a tab, what the stack refused (the first refusal of a case names it).
    const refusals = new Map<string, string>();
    if (existsSync(refusalsFile)) {
      for (const line of (await readFile(refusalsFile, 'utf8')).split('\n').filter(Boolean)) {
        const [name = '', reason = ''] = line.split('\t');
        if (!refusals.has(name)) refusals.set(name, reason);
      }
    }
    for (const file of report.testResults) {
      if (file.assertionResults.length === 0 && file.status === 'failed') {
        const reason =
          (file.message ?? '').split('\n').find((line) => /error/i.test(line)) ?? file.message ?? '';
        figures.notLoaded.push(`${path.relative(root, file.name)}: ${reason}`);
      }
      for (const result of file.assertionResults) {
        if (result.status === 'passed') figures.passed++;
        else if (result.status !== 'failed') continue;
        else if (refusals.has(result.fullName)) {
          figures.refused++;
          figures.refusedCases.push(
            `${path.relative(root, file.name)} › ${result.fullName}: ${refusals.get(result.fullName)}`,
          );
        } else {
          figures.wrong++;
          figures.wrongCases.push(`${path.relative(root, file.name)} › ${result.fullName}`);
          details.push(
            `## ${suite.name}: ${path.relative(root, file.name)} › ${result.fullName}\n${result.failureMessages.join('\n').slice(0, 3000)}\n`,
          );
        }
      }
    }
    return figures;
  } finally {
    if (kong) await new Promise((resolve) => kong?.close(resolve));
    await stack?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

const monorepo = process.env.SUPABASE_JS_DIR;
if (!monorepo || !existsSync(path.join(monorepo, 'packages/core'))) {
  console.error(
    'Set SUPABASE_JS_DIR to a copy of the supabase-js monorepo (with packages/core/postgrest-js and auth-js).',
  );
  process.exit(2);
}
/** Every wrong case's failure, written to a file beside the summary. */
const details: string[] = [];
const only = process.env.CLIENT_SUITES?.split(',');
const results: SuiteFigures[] = [];
for (const suite of suites)
  if (!only || only.includes(suite.name)) results.push(await runSuite(monorepo, suite, details));
const detailsFile = path.join(tmpdir(), 'client-suites-failures.md');
await writeFile(detailsFile, details.join('\n'));
const refusalsListFile = path.join(tmpdir(), 'client-suites-refusals.md');
await writeFile(refusalsListFile, results.flatMap((result) => result.refusedCases).join('\n') + '\n');

console.log('\n| suite | pass | refused by name | wrong | files not loaded |');
console.log('| --- | --- | --- | --- | --- |');
for (const result of results) {
  console.log(
    result.failedToStart
      ? `| ${result.suite} | did not start: ${result.failedToStart} | | | |`
      : `| ${result.suite} | ${result.passed} | ${result.refused} | ${result.wrong} | ${result.notLoaded.length} |`,
  );
}
console.log(
  `\nEach wrong case's failure: ${detailsFile}; each refused case and what was refused: ${refusalsListFile}`,
);
for (const result of results) {
  if (result.notLoaded.length)
    console.log(`\n${result.suite}, files not loaded:\n  ${result.notLoaded.join('\n  ')}`);
  if (result.refusedCases.length)
    console.log(`\n${result.suite}, refused by name:\n  ${result.refusedCases.join('\n  ')}`);
  if (result.wrongCases.length) console.log(`\n${result.suite}, wrong:\n  ${result.wrongCases.join('\n  ')}`);
}
