import { expect, test, type Browser, type Page } from '@playwright/test';
import { confirmAdminAction } from './support/admin-actions';
import { personWithBalance, submitBuyRequest } from './support/admin-people';
import { openSignedIn, toast } from './support/auth-people';
import { openAsWorkerAdmin, workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { serverPrice, stubMarketProvider } from './support/market-provider';
import { openFromMenu } from './support/navigation';

test.use({ locale: 'en-US' });

/** The spec's budget for a new request to reach an admin's open queue. */
const LIVE_BUDGET_MS = 2_000;

async function newPage(browser: Browser, prices: Readonly<Record<string, number>> = {}): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await stubMarketProvider(page, undefined, prices);
  await skipLimitsNotices(page);
  return page;
}

test('a user’s buy request and withdrawal reach the admin’s queues live, and the approvals reach the user live', async ({
  browser,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Live Person', 1000);
  const adminPage = await newPage(browser);
  // The person sees the server's price, so their request's limit (2 % above it) lets the approval fill.
  const userPage = await newPage(browser, { bitcoin: await serverPrice(admin, 'bitcoin') });
  await openAsWorkerAdmin(adminPage);
  await openSignedIn(userPage, person);

  // Buy: the admin's open queue shows the new request without a reload.
  await openFromMenu(adminPage, 'Buy requests', 'Buy requests');
  await expect(adminPage.locator('[aria-busy="true"]')).toHaveCount(0);
  await openFromMenu(userPage, 'Buy', 'Buy Cryptocurrency');
  await userPage.getByLabel('Cryptocurrency').selectOption('bitcoin');
  await userPage.getByLabel('Amount (USD)').fill('250');
  await userPage.getByRole('button', { name: 'Submit Buy Request' }).click();
  await expect(toast(userPage, 'Buy request submitted successfully')).toBeVisible();
  const adminBuyRow = adminPage.getByTestId('admin-buy-request-row').filter({ hasText: person.fullName });
  await expect(adminBuyRow).toBeVisible({ timeout: LIVE_BUDGET_MS });
  await expect(adminBuyRow).toContainText('$250.00');

  await adminBuyRow.getByRole('button', { name: /^Approve / }).click();
  await confirmAdminAction(adminPage, 'Approve');
  await expect(adminBuyRow.getByText('approved')).toBeVisible();
  const userBuyRow = userPage.getByTestId('buy-request-row').first();
  await expect(userBuyRow.getByText('approved')).toHaveAttribute('data-tone', 'green', {
    timeout: LIVE_BUDGET_MS,
  });
  await expect(userPage.getByTestId('available-balance')).toHaveText('$750.00');

  // Withdraw: same journey through the withdraw queue.
  await openFromMenu(adminPage, 'Withdraw requests', 'Withdraw requests');
  await expect(adminPage.locator('[aria-busy="true"]')).toHaveCount(0);
  await openFromMenu(userPage, 'Withdraw', 'Withdraw Funds');
  await userPage.getByLabel('Amount (USD)').fill('100');
  await userPage.getByLabel('Withdraw method').selectOption('wallet');
  await userPage.getByLabel('Cryptocurrency').selectOption('ETH');
  await userPage.getByLabel('Wallet address').fill('0x1111222233334444555566667777888899990000');
  await userPage.getByRole('button', { name: 'Submit Withdraw Request' }).click();
  await expect(toast(userPage, 'Withdraw request submitted successfully')).toBeVisible();
  const adminWithdrawRow = adminPage
    .getByTestId('admin-withdraw-request-row')
    .filter({ hasText: person.fullName });
  await expect(adminWithdrawRow).toBeVisible({ timeout: LIVE_BUDGET_MS });
  await expect(adminWithdrawRow).toContainText('$100.00');

  await adminWithdrawRow.getByRole('button', { name: /^Approve / }).click();
  await confirmAdminAction(adminPage, 'Approve');
  await expect(adminWithdrawRow.locator('[data-tone]')).toHaveText('Approved');
  const userWithdrawRow = userPage.getByTestId('withdraw-request-row').first();
  await expect(userWithdrawRow.getByText('approved')).toHaveAttribute('data-tone', 'green', {
    timeout: LIVE_BUDGET_MS,
  });
  await expect(userPage.getByTestId('available-balance')).toHaveText('$650.00');
});

test('a request that arrives while the pointer is over the queue waits behind "N new", uncounted by the pager, shown on a click or when the pointer leaves', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Held Back', 1000);
  await submitBuyRequest(person, 30);
  await openAsWorkerAdmin(page);
  await openFromMenu(page, 'Buy requests', 'Buy requests');
  await page.getByRole('searchbox', { name: 'Search by name or e-mail' }).fill(person.fullName);
  // The search has been sent and its rows have arrived: the rows kept are the person's own.
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const rows = page.getByTestId('admin-buy-request-row').filter({ hasText: person.fullName });
  await expect(rows).toHaveCount(1);
  const showNew = page.getByRole('button', { name: '1 new' });
  // The pager counts the rows shown; one held behind "1 new" is counted once it shows.
  const pagerCount = page.getByRole('navigation', { name: 'Buy requests pages' }).getByText(/–\d+ of /);
  await expect(pagerCount).toHaveText('1–1 of 1');

  // The pointer rests on the row: the new request waits, and the row under the pointer stays put.
  await rows.first().hover();
  await submitBuyRequest(person, 40);
  await expect(showNew).toBeVisible({ timeout: LIVE_BUDGET_MS });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('$30.00');
  await expect(pagerCount).toHaveText('1–1 of 1');

  await showNew.click();
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('$40.00');
  await expect(showNew).toBeHidden();
  await expect(pagerCount).toHaveText('1–2 of 2');

  // Still over the table: the next one waits too, until the pointer leaves.
  await submitBuyRequest(person, 50);
  await expect(showNew).toBeVisible({ timeout: LIVE_BUDGET_MS });
  await expect(rows).toHaveCount(2);
  await expect(pagerCount).toHaveText('1–2 of 2');
  await page.getByRole('heading', { name: 'Buy requests' }).hover();
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText('$50.00');
  await expect(showNew).toBeHidden();
  await expect(pagerCount).toHaveText('1–3 of 3');
});
