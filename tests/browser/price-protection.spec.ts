import { randomUUID } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { localDefaults } from '../../devstack/src/config';
import { createNodeClient } from '../support/node-client';
import { idOf } from '../support/keyed-calls';
import { confirmAdminAction } from './support/admin-actions';
import { apiUrl, openSignedIn, toast } from './support/auth-people';
import {
  openAsWorkerAdmin,
  signUpBitcoinHolder,
  signUpFundedBuyer,
  type Buyer,
  workerAdminClient,
} from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { serverPrice, stubMarketProvider } from './support/market-provider';
import { openFromMenu } from './support/navigation';

/**
 * Price-protected requests in the browser: the person picks how far the price may move against them, the
 * request carries the limit, the admin's queue sets the current price against it, and an approval past the
 * limit or after the expiry is refused with the database's own words.
 */

test.use({ locale: 'en-US' });

const usd = (value: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value);

async function openBuyPage(page: Page, buyer: Buyer, prices: Readonly<Record<string, number>> = {}) {
  await stubMarketProvider(page, undefined, prices);
  await skipLimitsNotices(page);
  await openSignedIn(page, buyer);
  await openFromMenu(page, 'Buy', 'Buy Cryptocurrency');
}

/** The worker's admin at the live buy queue, in a browser context of their own (prices from the server). */
async function openAdminBuyQueue(browser: Browser): Promise<Page> {
  const adminPage = await (await browser.newContext({ locale: 'en-US' })).newPage();
  await openAsWorkerAdmin(adminPage);
  await openFromMenu(adminPage, 'Buy requests', 'Buy requests');
  return adminPage;
}

test('a buy whose limit the price has moved past is refused on approval, naming the price and the limit, and stays pending', async ({
  page,
  browser,
}) => {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 1000);
  // The person looked when Bitcoin was 10 % cheaper than the server's price now.
  const shown = Math.round((await serverPrice(admin, 'bitcoin')) * 90) / 100;
  await openBuyPage(page, buyer, { bitcoin: shown });

  await page.getByLabel('Cryptocurrency').selectOption('bitcoin');
  await page.getByLabel('Amount (USD)').fill('100');
  await page.getByLabel('Price protection').selectOption('Fill only within 1% above the price shown');
  const limit = Number((shown * 1.01).toFixed(8));
  await expect(page.getByTestId('limit-price')).toHaveText(
    `Limit price: ${usd(limit)} per coin. If the price is above it when an admin approves, or the request is 24 hours old, it is not filled.`,
  );
  await page.getByLabel('Expires after').selectOption('3 days');
  await expect(page.getByTestId('limit-price')).toContainText('or the request is 3 days old');
  const submittedAt = Date.now();
  await page.getByRole('button', { name: 'Submit Buy Request' }).click();
  await expect(toast(page, 'Buy request submitted successfully')).toBeVisible();

  const adminPage = await openAdminBuyQueue(browser);
  const row = adminPage.getByTestId('admin-buy-request-row').filter({ hasText: buyer.fullName });
  await expect(row.getByTestId('limit-cell')).toHaveText(`${usd(limit)}Price above the limit`);
  // The admin sees the expiry the person picked: three days from submitting.
  const expiry = await row.getByTestId('expiry-cell').locator('time').getAttribute('datetime');
  expect(Math.round((new Date(expiry ?? '').getTime() - submittedAt) / 3_600_000)).toBe(72);
  await row.getByRole('button', { name: /^Approve / }).click();
  const confirmation = adminPage.getByRole('dialog', { name: 'Approve buy request' });
  await expect(confirmation).toContainText(`Limit${usd(limit)}`);
  await confirmAdminAction(adminPage, 'Approve');
  await expect(
    toast(
      adminPage,
      new RegExp(`^The price of bitcoin is \\$[\\d.]+ now, above this request's limit of \\$${limit}$`),
    ),
  ).toBeVisible();

  // Nothing moved: still pending for both, the request still holding its 100 USD back.
  await expect(row.locator('[data-tone]')).toHaveText('Pending');
  await expect(page.getByTestId('buy-request-row').first().locator('[data-tone]')).toHaveText('Pending');
  await expect(page.getByTestId('available-balance')).toHaveText('$900.00');
  await adminPage.context().close();
});

test('a request past its expiry shows as expired to the person and the admin, who can only reject it', async ({
  page,
  browser,
}) => {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 500);
  const person = createNodeClient(apiUrl(), localDefaults.anonKey);
  await person.auth.signInWithPassword(buyer);
  const expiresAt = Date.now() + 3_000;
  await idOf(
    person
      .rpc('create_buy_request', {
        cryptocurrency: 'bitcoin',
        amount: 50,
        idempotency_key: randomUUID(),
        expires_at: new Date(expiresAt).toISOString(),
      })
      .single(),
  );
  await expect.poll(() => Date.now(), { timeout: 10_000 }).toBeGreaterThan(expiresAt);

  await openBuyPage(page, buyer);
  await expect(page.getByTestId('buy-request-row').first().locator('[data-tone]')).toHaveText('Expired');

  const adminPage = await openAdminBuyQueue(browser);
  const row = adminPage.getByTestId('admin-buy-request-row').filter({ hasText: buyer.fullName });
  await expect(row.locator('[data-tone]')).toHaveText('Expired');
  await expect(row.getByTestId('expiry-cell')).toHaveText('Expired');
  await expect(row.getByRole('button', { name: /^Approve / })).toHaveCount(0);
  await row.getByRole('button', { name: /^Reject / }).click();
  await confirmAdminAction(adminPage, 'Reject');
  await expect(toast(adminPage, 'Buy request rejected')).toBeVisible();
  await expect(row.locator('[data-tone]')).toHaveText('Rejected');
  await expect(page.getByTestId('buy-request-row').first().locator('[data-tone]')).toHaveText('Rejected');
  await adminPage.context().close();
  await person.auth.signOut({ scope: 'local' });
});

test('a sale whose limit the price has fallen below is refused on approval, naming the price and the limit', async ({
  page,
  browser,
}) => {
  const admin = await workerAdminClient();
  const { holder: seller, client: person } = await signUpBitcoinHolder(admin, 1000, 300);
  // The person looked when Bitcoin was 10 % dearer than the server's price now.
  const shown = Math.round((await serverPrice(admin, 'bitcoin')) * 110) / 100;
  await stubMarketProvider(page, undefined, { bitcoin: shown });
  await skipLimitsNotices(page);
  await openSignedIn(page, seller);

  await page.getByTestId('portfolio-row').getByRole('button', { name: 'Sell Bitcoin' }).click();
  const sellDialog = page.getByRole('dialog', { name: 'Sell Bitcoin' });
  await sellDialog.getByRole('button', { name: 'All' }).click();
  await sellDialog.getByLabel('Price protection').selectOption('Fill only within 1% below the price shown');
  const limit = Number((shown * 0.99).toFixed(8));
  await expect(sellDialog.getByTestId('limit-price')).toContainText(`Limit price: ${usd(limit)} per coin.`);
  await sellDialog.getByRole('button', { name: 'Submit Sell Request' }).click();
  await expect(toast(page, 'Sell request submitted successfully')).toBeVisible();

  const adminPage = await (await browser.newContext({ locale: 'en-US' })).newPage();
  await openAsWorkerAdmin(adminPage);
  await openFromMenu(adminPage, 'Sell requests', 'Sell requests');
  const row = adminPage.getByTestId('admin-sell-request-row').filter({ hasText: seller.fullName });
  await expect(row.getByTestId('limit-cell')).toHaveText(`${usd(limit)}Price below the limit`);
  await row.getByRole('button', { name: /^Approve / }).click();
  await confirmAdminAction(adminPage, 'Approve');
  await expect(
    toast(
      adminPage,
      new RegExp(`^The price of bitcoin is \\$[\\d.]+ now, below this request's limit of \\$${limit}$`),
    ),
  ).toBeVisible();
  await expect(row.locator('[data-tone]')).toHaveText('Pending');
  await adminPage.context().close();
  await person.auth.signOut({ scope: 'local' });
});
