import { expect, test, type BrowserContext, type Page, type WebSocketRoute } from '@playwright/test';
import pg from 'pg';
import WebSocket from 'ws';
import { seededAccounts } from '../../supabase/seed-accounts';
import { startStack, type RunningStack } from '../../devstack/src/stack';
import { signUpOn } from '../support/fault-stack';
import { apiUrl, logIn } from './support/auth-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';
import { openFromMenu } from './support/navigation';

/**
 * This journey restarts Postgres, so it runs against a stack of its own (its own database and gateway),
 * never the one the other browser tests share. The app is the suite's own build: the browser's calls to
 * the shared API (HTTP and the Realtime WebSocket) are carried to this stack instead, unchanged. Starting
 * and restarting a whole stack starves both cores for seconds, which the other worker's tests would feel
 * as the shared gateway shedding load, so it runs with the `@shared-state` tests, alone.
 */
let stack: RunningStack;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  stack = await startStack();
});

test.afterAll(async () => {
  await stack?.stop();
});

/** Carries one Realtime WebSocket of the page to the same path on this file's stack. */
function forwardRealtime(route: WebSocketRoute) {
  const target = new URL(route.url());
  const own = new URL(stack.apiUrl);
  target.host = own.host;
  const upstream = new WebSocket(target);
  const waiting: string[] = [];
  upstream.on('open', () => waiting.splice(0).forEach((message) => upstream.send(message)));
  route.onMessage((message) => {
    const text = message.toString();
    if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
    else waiting.push(text);
  });
  upstream.on('message', (data) => route.send(data.toString()));
  upstream.on('close', () => void route.close().catch(() => undefined));
  upstream.on('error', () => void route.close().catch(() => undefined));
  route.onClose(() => upstream.terminate());
}

async function onOwnStack(context: BrowserContext) {
  const shared = new URL(apiUrl());
  await context.route(
    (url) => url.host === shared.host && url.protocol.startsWith('http'),
    async (route) => {
      const url = new URL(route.request().url());
      url.host = new URL(stack.apiUrl).host;
      await route.fulfill({ response: await route.fetch({ url: url.toString() }) });
    },
  );
  await context.routeWebSocket((url) => url.host === shared.host, forwardRealtime);
}

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

async function openAdminBuyQueue(page: Page) {
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await logIn(page, seededAccounts.admin, /\/admin\/users$/);
  await openFromMenu(page, 'Buy requests', 'Buy requests');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

test('an admin’s open queue shows a request made while Postgres restarted: the queue reads again when its channel reports the gap @shared-state', async ({
  context,
  page,
}) => {
  await onOwnStack(context);
  const person = await signUpOn(stack);
  const fullName = `Gap Person ${person.id.slice(0, 8)}`;
  const operator = new pg.Client({ connectionString: stack.databaseUrl });
  await operator.connect();
  await operator.query('update public.profiles set full_name = $1 where id = $2', [fullName, person.id]);
  await operator.end();
  await openAdminBuyQueue(page);
  const rows = page.getByTestId('admin-buy-request-row').filter({ hasText: fullName });
  await expect(rows).toHaveCount(0);

  await buyRequestDuringTheGap(person.id);

  // Realtime never delivers that change; only the queue's own read after the rejoin can show it.
  await expect(rows).toHaveCount(1, { timeout: 30_000 });
  await expect(rows).toContainText('$321.00');
});
