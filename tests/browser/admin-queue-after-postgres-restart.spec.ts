import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { buildApp, serveApp, type RunningAppServer } from '../../devstack/app-server';
import { seededAccounts } from '../../devstack/config';
import { startStack, type RunningStack } from '../../devstack/stack';
import { signUpOn } from '../support/fault-stack';
import { logIn } from './support/auth-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';
import { openFromMenu } from './support/navigation';

/**
 * This journey restarts Postgres, so it runs on a stack of its own (its own database, gateway and app
 * build), never on the stack the other browser tests share.
 */
let stack: RunningStack;
let app: RunningAppServer;
let buildDir: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  stack = await startStack();
  buildDir = await mkdtemp(path.join(tmpdir(), 'coinvault-restart-app-'));
  await buildApp({ outDir: buildDir, apiUrl: stack.apiUrl, anonKey: stack.anonKey });
  app = await serveApp({ rootDir: buildDir });
});

test.afterAll(async () => {
  await app?.stop();
  await stack?.stop();
  if (buildDir) await rm(buildDir, { recursive: true, force: true });
});

/**
 * Restarts Postgres and, before Realtime has streamed from it again, commits a buy request of `userId`:
 * a change that no replication slot can ever carry (checked in the same statement, which inserts
 * nothing once Realtime's new slot exists; then the restart is tried again).
 */
async function buyRequestDuringTheGap(userId: string): Promise<void> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    await stack.postgres.restart();
    const operator = new pg.Client({ connectionString: stack.databaseUrl });
    await operator.connect();
    try {
      const { rowCount } = await operator.query(
        `insert into public.buy_requests (user_id, cryptocurrency, amount)
         select $1, 'bitcoin', 321 where not exists (select from pg_replication_slots where slot_name like 'realtime_%')`,
        [userId],
      );
      if (rowCount === 1) return;
    } finally {
      await operator.end();
    }
  }
  throw new Error('Realtime streamed again before a change could be committed in the gap');
}

async function adminPage(page: Page) {
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await logIn(page, seededAccounts.admin, /\/admin\/users$/);
  await openFromMenu(page, 'Buy requests', 'Buy requests');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

test('an admin’s open queue shows a request made while Postgres restarted: the queue reads again when its channel reports the gap', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'en-US', baseURL: app.url });
  const page = await context.newPage();
  const person = await signUpOn(stack);
  const operator = new pg.Client({ connectionString: stack.databaseUrl });
  await operator.connect();
  const fullName = `Gap Person ${person.id.slice(0, 8)}`;
  await operator.query('update public.profiles set full_name = $1 where id = $2', [fullName, person.id]);
  await operator.end();
  await adminPage(page);
  const rows = page.getByTestId('admin-buy-request-row').filter({ hasText: fullName });
  await expect(rows).toHaveCount(0);

  await buyRequestDuringTheGap(person.id);

  // Realtime never delivers that change; only the queue's own read after the rejoin can show it.
  await expect(rows).toHaveCount(1, { timeout: 30_000 });
  await expect(rows).toContainText('$321.00');
  await context.close();
});
