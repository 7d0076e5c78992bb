import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, serveApp } from '../../devstack/app-server';
import { startStack } from '../../devstack/stack';

/**
 * One throwaway stack for the browser tests: a fresh seeded database and gateway on free ports, the app
 * built against it and served on a free port. Workers read the app's address from `APP_URL` (the
 * config's `baseURL`) and the API's from `API_URL`. The returned function tears everything down.
 */
export default async function globalSetup() {
  const stack = await startStack();
  const buildDir = await mkdtemp(path.join(tmpdir(), 'coinvault-app-'));
  try {
    await buildApp({ outDir: buildDir, apiUrl: stack.apiUrl, anonKey: stack.anonKey });
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
