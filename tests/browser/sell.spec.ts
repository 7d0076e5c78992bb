import { expect, test } from '@playwright/test';
import { recordCurrentPrices } from '../support/keyed-calls';
import { seriousAccessibilityViolations } from './support/accessibility';
import { confirmAdminAction } from './support/admin-actions';
import { logIn, toast } from './support/auth-people';
import { openAsWorkerAdmin, signUpBitcoinHolder, workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';

test.use({ locale: 'en-US' });

const usd = (value: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value);

test('a sale asked for in the portfolio and approved in the admin queue lowers the quantity and raises the USD balance, live', async ({
  page,
  browser,
}) => {
  const admin = await workerAdminClient();
  const { holder: seller, buyRequestId: buyId } = await signUpBitcoinHolder(admin, 1000, 300);
  const { data: bought, error } = await admin
    .from('transactions')
    .select('quantity::text')
    .eq('buy_request_id', buyId)
    .single();
  if (error) throw error;
  const held = Number(bought.quantity);
  const toSell = (Math.floor((held / 2) * 1e8) / 1e8).toFixed(8);

  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await logIn(page, seller);
  const row = page.getByTestId('portfolio-row');
  await expect(row.getByRole('cell').nth(1)).toHaveText(held.toFixed(8));
  await expect(page.getByTestId('portfolio-usd-balance')).toHaveText('USD balance$700.00');

  await row.getByRole('button', { name: 'Sell Bitcoin' }).click();
  const sellDialog = page.getByRole('dialog', { name: 'Sell Bitcoin' });
  // The exact holding cut (never rounded up) to the 8 places the app shows.
  const available = bought.quantity.replace(/(\.\d{8})\d*$/, '$1').replace(/\.?0+$/, '');
  await expect(sellDialog).toContainText(`Available to sell: ${available} BTC`);
  // More than is held is refused in the form, naming what may be sold.
  await sellDialog.getByLabel('Quantity (BTC)').fill((held * 2).toFixed(8));
  await sellDialog.getByRole('button', { name: 'Submit Sell Request' }).click();
  await expect(sellDialog.getByRole('alert')).toHaveText(/^You can sell at most /);
  await sellDialog.getByLabel('Quantity (BTC)').fill(toSell);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await sellDialog.getByRole('button', { name: 'Submit Sell Request' }).click();
  await expect(toast(page, 'Sell request submitted successfully')).toBeVisible();
  await expect(sellDialog).toBeHidden();
  // The person's own list shows it waiting, with the limit their 2 % protection set.
  const ownRequest = page.getByTestId('sell-request-row');
  await expect(ownRequest).toHaveCount(1);
  await expect(ownRequest.getByRole('cell').nth(2)).toHaveText(toSell.replace(/\.?0+$/, ''));
  await expect(ownRequest.getByRole('cell').nth(3)).toHaveText('$29,400.00');
  await expect(ownRequest.locator('[data-tone]')).toHaveText('Pending');

  // The admin's queue, in a browser of their own.
  const adminContext = await browser.newContext({ locale: 'en-US' });
  const adminPage = await adminContext.newPage();
  await openAsWorkerAdmin(adminPage);
  await recordCurrentPrices(admin);
  await adminPage.getByRole('link', { name: /^Sell requests/ }).click();
  await expect(adminPage.getByRole('heading', { name: 'Sell requests', level: 1 })).toBeVisible();
  const queueRow = adminPage.getByTestId('admin-sell-request-row').filter({ hasText: seller.fullName });
  await expect(queueRow).toHaveCount(1);
  await expect(queueRow).toContainText(toSell);
  // The limit the person's 2 % price protection set: the price they saw ($30,000) less 2 %.
  await expect(queueRow.getByTestId('limit-cell')).toHaveText('$29,400.00');
  await queueRow.getByRole('button', { name: /^Approve / }).click();
  const confirmation = adminPage.getByRole('dialog', { name: 'Approve sell request' });
  await expect(confirmation).toContainText(seller.fullName);
  await expect(confirmation).toContainText('Bitcoin');
  await expect(confirmation).toContainText(toSell);
  await confirmAdminAction(adminPage, 'Approve');
  await expect(toast(adminPage, 'Sell request approved')).toBeVisible();
  await expect(queueRow.locator('[data-tone]')).toHaveText('Approved');

  // Credited at the server's price, truncated to the cent; the person's page follows without a reload.
  const { data: sold, error: soldError } = await admin
    .from('sell_requests_with_user')
    .select('amount')
    .eq('user_id', seller.id)
    .single();
  if (soldError) throw soldError;
  const credit = Number(sold.amount);
  expect(credit).toBeGreaterThan(0);
  const { data: left, error: leftError } = await admin
    .from('holdings')
    .select('quantity')
    .eq('user_id', seller.id)
    .single();
  if (leftError) throw leftError;
  expect(Number(left.quantity)).toBeCloseTo(held - Number(toSell), 12);
  await expect(row.getByRole('cell').nth(1)).toHaveText(Number(left.quantity).toFixed(8));
  await expect(page.getByTestId('portfolio-usd-balance')).toHaveText(`USD balance${usd(700 + credit)}`);
  await expect(ownRequest.locator('[data-tone]')).toHaveText('Approved');
  await adminContext.close();
});

test('a 3.37 USD sale under the 10 USD minimum is refused in the form, as is a USD value with 3 decimals', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const { holder: seller } = await signUpBitcoinHolder(admin, 1000, 300);
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await logIn(page, seller);

  await page.getByTestId('portfolio-row').getByRole('button', { name: 'Sell Bitcoin' }).click();
  const sellDialog = page.getByRole('dialog', { name: 'Sell Bitcoin' });
  await sellDialog.getByLabel('Sell by').selectOption('usd');
  await sellDialog.getByLabel('Value (USD)').fill('3.37');
  // The estimate still says what it is worth; sending it is refused in the database's words.
  await expect(sellDialog.getByTestId('sell-estimate')).toHaveText('0.00011233 BTC ≈ $3.37');
  await sellDialog.getByRole('button', { name: 'Submit Sell Request' }).click();
  await expect(sellDialog.getByRole('alert')).toHaveText('Minimum transaction amount is $10');

  await sellDialog.getByLabel('Value (USD)').fill('10.555');
  await sellDialog.getByRole('button', { name: 'Submit Sell Request' }).click();
  await expect(sellDialog.getByRole('alert')).toHaveText('Value can have at most 2 decimal places');

  await sellDialog.getByLabel('Value (USD)').fill('10.55');
  await expect(sellDialog.getByTestId('sell-estimate')).toHaveText('0.00035166 BTC ≈ $10.55');
  await sellDialog.getByRole('button', { name: 'Submit Sell Request' }).click();
  await expect(toast(page, 'Sell request submitted successfully')).toBeVisible();
  // Only the last one reached the database.
  await expect(page.getByTestId('sell-request-row')).toHaveCount(1);
});
