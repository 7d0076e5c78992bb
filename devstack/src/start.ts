import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { serveApp } from './app-server';
import { localDefaults } from './config';
import { startPostgres } from './db/postgres';
import { prepareDatabase } from './db/prepare';
import { ensureFunctionSecrets, functionsEnvFile } from './functions-secrets';
import { startGateway } from './gateway/server';
import { loadProject, type DevstackProject } from './project';

/**
 * `npm start`: the whole app on this machine, for the project in the working directory (its `supabase/` and
 * `devstack.config.ts`). A persistent database in `.data/` (bootstrap and
 * migrations on every start, the seed on the first), the gateway on 54321 and the built app on 5173.
 * `--dev` serves the app with Vite's dev server instead. Ctrl-C or SIGTERM stops everything.
 */

const projectRoot = process.cwd();
const dataDir = path.join(projectRoot, '.data/postgres');
const devMode = process.argv.includes('--dev');
const apiUrl = `http://127.0.0.1:${localDefaults.apiPort}`;
const appUrl = `http://localhost:${localDefaults.appPort}`;

const stops: (() => Promise<void>)[] = [];
let stopping = false;

async function stopAll(exitCode: number) {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping…');
  // Last started, first stopped: the app, then the gateway (and its Deno workers), then Postgres.
  for (const stop of stops.reverse()) {
    await stop().catch((error: unknown) => console.error(error));
  }
  process.exit(exitCode);
}

/** The accounts the project's seed makes (devstack.config.ts), one line each. */
function accountLines({ config }: DevstackProject): string {
  return Object.entries(config.seededAccounts ?? {})
    .map(([name, account]) => {
      const secret = account.totpSecret ? ` (TOTP secret ${account.totpSecret})` : '';
      return `  ${name.padEnd(6)} ${account.email} / ${account.password}${secret}`;
    })
    .join('\n');
}

/** The project's schedules (Supabase Cron's stand-in), one line each. */
function scheduleLines({ config }: DevstackProject): string {
  return Object.entries(config.schedules ?? {})
    .map(
      ([job, schedule]) =>
        `  ${job}  POST /functions/v1/${schedule.function} every ${schedule.everySeconds} s`,
    )
    .join('\n');
}

/** The project's upstream stubs, as the functions see them. */
function upstreamLines({ config }: DevstackProject, apiUrl: string): string {
  return Object.entries(config.upstreams ?? {})
    .map(([name, upstream]) => `  ${upstream.env}  ${apiUrl}/${name}${upstream.basePath ?? ''} (stub)`)
    .join('\n');
}

async function startApp({ config }: DevstackProject, anonKey: string) {
  if (devMode) {
    const { createServer } = await import('vite');
    process.env.VITE_SUPABASE_URL = apiUrl;
    process.env.VITE_SUPABASE_ANON_KEY = anonKey;
    const vite = await createServer({
      root: projectRoot,
      server: { port: localDefaults.appPort, strictPort: true },
    });
    await vite.listen();
    stops.push(() => vite.close());
    return;
  }
  if (!config.buildApp) return;
  console.log('Building the app…');
  const outDir = path.join(projectRoot, 'dist');
  await config.buildApp({ outDir, apiUrl, anonKey });
  const app = await serveApp({ rootDir: outDir, port: localDefaults.appPort, host: 'localhost' });
  stops.push(() => app.stop());
}

async function main() {
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const firstStart = !existsSync(path.join(dataDir, 'PG_VERSION'));
  await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  console.log(firstStart ? 'Creating the database in .data/…' : 'Starting the database in .data/…');
  const postgres = await startPostgres({ dataDir, port: localDefaults.dbPort });
  stops.push(() => postgres.stop());

  console.log('Applying the platform bootstrap and migrations…');
  const project = await loadProject(projectRoot);
  await prepareDatabase(postgres.url, { seed: firstStart, projectRoot });
  await ensureFunctionSecrets(project);

  const gateway = await startGateway({
    databaseUrl: postgres.url,
    jwtSecret: localDefaults.jwtSecret,
    anonKey: localDefaults.anonKey,
    serviceRoleKey: localDefaults.serviceRoleKey,
    projectRoot,
    port: localDefaults.apiPort,
    printMail: true,
    schedules: project.config.schedules,
  });
  stops.push(() => gateway.stop());

  await startApp(project, gateway.anonKey);

  console.log(`
The local stack is running${devMode ? ' (Vite dev server)' : ''}.

  App          ${appUrl}
  API          ${gateway.url}
  Database     ${postgres.url}
  Mailbox      ${gateway.url}/mailbox
${upstreamLines(project, gateway.url)}
${scheduleLines(project)}

  anon key          ${gateway.anonKey}
  service_role key  ${gateway.serviceRoleKey}
  JWT secret        ${localDefaults.jwtSecret}
  Function secrets  ${path.relative(projectRoot, functionsEnvFile(projectRoot))}

${accountLines(project)}
${firstStart ? '\n  The seed was loaded (first start).' : '\n  Data kept from the previous run (the seed loads on the first start only).'}

Press Ctrl-C to stop.`);
}

main().catch(async (error: unknown) => {
  console.error(error);
  await stopAll(1);
});
