import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { idOf, requestBuy } from '../support/keyed-calls';
import { personWithBalance, submitWalletWithdrawal } from './support/admin-people';
import { openAsWorkerAdmin, signUpBitcoinHolder, workerAdminClient } from './support/buy-people';
import { showInApp } from './support/navigation';
import { sidewaysScrolling } from './support/sideways';

test.use({ locale: 'en-US' });

test('at 1366 no admin page scrolls sideways: every table fits its box with a long name, a limit and an expiry', async ({
  page,
}) => {
  // Eleven pages, each settled.
  test.slow();
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Maximiliana Fitzgerald-Oppenheimer', 5000);
  // A pending buy with a limit and an expiry, and one without: the queue's widest rows.
  await idOf(
    person.client.rpc('create_buy_request', {
      cryptocurrency: 'ethereum',
      amount: 1234.56,
      limit_price: 123456.78,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      idempotency_key: randomUUID(),
    }),
  );
  await idOf(requestBuy(person.client, 'bitcoin', 250));
  await submitWalletWithdrawal(person, 30, '0x1111222233334444555566667777888899990000');
  const { holder, client } = await signUpBitcoinHolder(admin, 500, 100);
  await idOf(
    client.rpc('create_sell_request', {
      cryptocurrency: 'bitcoin',
      quantity: 0.00045678,
      limit_price: 12345.67,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      idempotency_key: randomUUID(),
    }),
  );
  await client.auth.signOut({ scope: 'local' });

  await page.setViewportSize({ width: 1366, height: 900 });
  await openAsWorkerAdmin(page);
  const pages: [path: string, rowTestId?: string][] = [
    [`users?q=${encodeURIComponent(person.email)}`, 'admin-user-row'],
    ['frozen-accounts'],
    [`transactions?user=${person.id}`, 'admin-transaction-row'],
    ['deposit'],
    ['status-types'],
    [`buy-requests?user=${person.id}`, 'admin-buy-request-row'],
    [`sell-requests?user=${holder.id}`, 'admin-sell-request-row'],
    [`withdraw-requests?user=${person.id}`, 'admin-withdraw-request-row'],
    ['settings'],
    ['audit-log'],
    ['ledger'],
  ];
  const found: string[] = [];
  for (const [path, rowTestId] of pages) {
    await showInApp(page, `/admin/${path}`);
    if (rowTestId) await expect(page.getByTestId(rowTestId).first()).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await expect(page.locator('.animate-pulse')).toHaveCount(0);
    found.push(...(await sidewaysScrolling(page)).map((over) => `/admin/${path.split('?')[0]}: ${over}`));
  }
  expect(found).toEqual([]);
});
