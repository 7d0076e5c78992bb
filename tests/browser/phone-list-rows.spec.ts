import { randomUUID } from 'node:crypto';
import { expect, test, type Locator } from '@playwright/test';
import { idOf } from '../support/keyed-calls';
import { openSignedIn } from './support/auth-people';
import { openAsWorkerAdmin, signUpBitcoinHolder, workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { sidewaysScrolling } from './support/sideways';

test.use({ locale: 'en-US', viewport: { width: 390, height: 844 } });

/** Whether the element lies between the window's left and right edges (in reach without sideways scrolling). */
const withinWindowWidth = (element: Locator) =>
  element.evaluate((node) => {
    const { left, right } = node.getBoundingClientRect();
    return left >= 0 && right <= document.documentElement.clientWidth;
  });

test("at 390 a person's portfolio, requests and statement are list rows: every figure named and in view, nothing scrolls sideways", async ({
  page,
}) => {
  test.slow();
  const admin = await workerAdminClient();
  const { holder, client } = await signUpBitcoinHolder(admin, 500, 100);
  await idOf(
    client.rpc('create_buy_request', {
      cryptocurrency: 'ethereum',
      amount: 20,
      limit_price: 5000,
      idempotency_key: randomUUID(),
    }),
  );
  await client.auth.signOut({ scope: 'local' });
  await skipLimitsNotices(page);
  await openSignedIn(page, holder);

  // The portfolio: the coin's value and P/L, the total and the USD balance, each beside its name.
  const position = page.getByTestId('portfolio-row');
  await expect(position).toBeVisible();
  for (const name of ['Value', 'Profit/loss']) {
    const cell = position.locator(`td[data-label^="${name}"]`);
    expect(await withinWindowWidth(cell), name).toBe(true);
    expect(await cell.evaluate((td) => getComputedStyle(td, '::before').content)).toContain(name);
  }
  await expect(page.getByTestId('portfolio-total').locator('td[data-label^="Value"]')).toHaveText(/^\$\d/);
  await expect(page.getByTestId('portfolio-usd-balance').locator('td[data-label^="Value"]')).toHaveText(
    '$380.00',
  );
  expect(await sidewaysScrolling(page), '/user/wallet').toEqual([]);

  await page.goto('/user/buy');
  const request = page.getByTestId('buy-request-row').first();
  await expect(request.locator('td[data-label="Status"]')).toContainText('Pending');
  expect(await withinWindowWidth(request.locator('td[data-label="Status"]'))).toBe(true);
  expect(await sidewaysScrolling(page), '/user/buy').toEqual([]);

  await page.goto('/user/statement');
  await expect(page.getByRole('heading', { name: 'Statement', level: 1 })).toBeVisible();
  await expect(page.locator('td[data-label^="Amount"]').first()).toBeVisible();
  expect(await sidewaysScrolling(page), '/user/statement').toEqual([]);

  await page.goto('/user/withdraw');
  await expect(page.getByRole('heading', { name: 'Withdraw Funds', level: 1 })).toBeVisible();
  expect(await sidewaysScrolling(page), '/user/withdraw').toEqual([]);
});

test('at 390 an admin queue shows each request as a list row with its figures named and its decision buttons in view', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const { holder, client } = await signUpBitcoinHolder(admin, 500, 100);
  await idOf(
    client.rpc('create_buy_request', {
      cryptocurrency: 'ethereum',
      amount: 20,
      limit_price: 5000,
      idempotency_key: randomUUID(),
    }),
  );
  await client.auth.signOut({ scope: 'local' });
  await openAsWorkerAdmin(page, `/admin/buy-requests?user=${holder.id}&status=pending`);
  const row = page.getByTestId('admin-buy-request-row');
  await expect(row).toHaveCount(1);
  expect(await row.evaluate((element) => getComputedStyle(element).display)).toBe('block');
  for (const [name, value] of [
    ['Amount (USD)', '$20.00'],
    // What the person could spend if this request were not holding its 20.00 back.
    ['Available balance', '$400.00'],
    ['Limit and expiry', '$5,000.00'],
    ['Status', 'Pending'],
  ] as const) {
    await expect(row.locator(`td[data-label="${name}"]`)).toContainText(value);
  }
  await row.getByRole('button', { name: /^Approve / }).scrollIntoViewIfNeeded();
  await expect(row.getByRole('button', { name: /^Approve / })).toBeInViewport({ ratio: 1 });
  await expect(row.getByRole('button', { name: /^Reject / })).toBeInViewport({ ratio: 1 });
  expect(await sidewaysScrolling(page), '/admin/buy-requests').toEqual([]);
});
