import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FullConfig } from '@playwright/test';
import { buildApp, serveApp } from '../../devstack/src/app-server';
import { startStack } from '../../devstack/src/stack';
import { fetchRetryingShed } from '../support/retry-shed';
import { createWorkerAdmins } from './support/worker-admin';

const functionsDir = fileURLToPath(new URL('../../supabase/functions', import.meta.url));

/**
 * Starts every Edge Function's Deno worker (a refused call is enough), so that no test's first call waits
 * for a worker to start: each test's budget is for the app, not for Deno loading its packages. Five
 * workers loading at once can make the gateway shed a call (503 with Retry-After, as under any overload):
 * that call is asked again after the time it names, as a client should.
 */
async function startFunctionWorkers(apiUrl: string, anonKey: string) {
  const folders = await readdir(functionsDir, { withFileTypes: true });
  const names = folders.filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'));
  await Promise.all(
    names.map(async ({ name }) => {
      const answer = await fetchRetryingShed(`${apiUrl}/functions/v1/${name}`, {
        method: 'POST',
        headers: { apikey: anonKey, authorization: `Bearer ${anonKey}`, 'content-type': 'application/json' },
        body: '{}',
      });
      await answer.body?.cancel();
      if (answer.status >= 500) throw new Error(`Function '${name}' did not start: ${answer.status}`);
    }),
  );
}

/**
 * One throwaway stack for the browser tests: a fresh seeded database and gateway on free ports, an admin
 * for each worker, the app built against it and served on a free port. Workers read the app's address
 * from `APP_URL` (the config's `baseURL`) and the API's from `API_URL`. The returned function tears
 * everything down.
 */
export default async function globalSetup(config: FullConfig) {
  const stack = await startStack();
  const buildDir = await mkdtemp(path.join(tmpdir(), 'coinvault-app-'));
  try {
    await Promise.all([
      buildApp({ outDir: buildDir, apiUrl: stack.apiUrl, anonKey: stack.anonKey }),
      startFunctionWorkers(stack.apiUrl, stack.anonKey),
      createWorkerAdmins(stack.databaseUrl, config.workers),
    ]);
    const app = await serveApp({ rootDir: buildDir });
    process.env.APP_URL = app.url;
    process.env.API_URL = stack.apiUrl;
    process.env.DATABASE_URL = stack.databaseUrl;
    return async () => {
      try {
        await app.stop();
      } finally {
        await stack.stop();
        await rm(buildDir, { recursive: true, force: true });
      }
    };
  } catch (error) {
    await stack.stop();
    await rm(buildDir, { recursive: true, force: true });
    throw error;
  }
}
