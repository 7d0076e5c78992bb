import { expect, test } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { applyStatus, confirmAdminAction } from './support/admin-actions';
import { existingUser, openSignedIn } from './support/auth-people';
import { openAsWorkerAdmin, signUpFundedBuyer, workerAdminClient } from './support/buy-people';
import { seriousAccessibilityViolations } from './support/accessibility';
import { limitsNoticeSeen, skipLimitsNotices, untilALaterNoticeShows } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';
import { createDeposit, idOf } from '../support/keyed-calls';

test.use({ locale: 'en-US' });

/** A new user with a completed deposit; each test has its own, as every spec file shares one stack. */
async function fundedUser(amount: number) {
  const admin = await workerAdminClient();
  const user = await signUpFundedBuyer(admin, amount);
  return user;
}

test('a user sees the available balance, the wallet code, a QR code of that code and a converter result', async ({
  page,
}) => {
  const person = await fundedUser(5000);
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await openSignedIn(page, person);

  await expect(page.getByRole('heading', { name: 'Your Wallet' })).toBeVisible();
  const balance = page.getByTestId('wallet-balance');
  await expect(balance).toHaveText('$5,000.00');
  await page.getByRole('button', { name: 'Hide balance' }).click();
  await expect(balance).not.toContainText('5,000');
  await page.getByRole('button', { name: 'Show balance' }).click();
  await expect(balance).toHaveText('$5,000.00');

  const code = page.getByTestId('wallet-code');
  await expect(code).toHaveText(/^bc1[a-z0-9]{9}\.\.\.$/);
  await page.getByRole('button', { name: 'Show More' }).click();
  const walletCode = (await code.textContent()) ?? '';
  expect(walletCode).toMatch(/^bc1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{39,59}$/);

  await expect(page.getByRole('img', { name: 'QR code of your wallet code' })).toBeVisible();
  const screenshot = PNG.sync.read(await page.getByTestId('wallet-qr').screenshot());
  const scanned = jsQR(new Uint8ClampedArray(screenshot.data), screenshot.width, screenshot.height);
  expect(scanned?.data).toBe(walletCode);

  const converter = page.getByRole('form', { name: 'Crypto Converter' });
  const convert = converter.getByRole('button', { name: 'Convert' });
  await expect(convert).toBeDisabled();
  await converter.getByLabel('From').selectOption('bitcoin');
  await converter.getByLabel('To').selectOption('ethereum');
  await converter.getByLabel('Amount').fill('2');
  await converter.getByLabel('Currency').selectOption('EUR');
  await convert.click();
  // The currency changes what the value is shown in, never the coin quantity: 2 BTC × 30,000 ÷ 2,000 ETH,
  // worth 60,000 USD = 54,545.45 EUR at the fixed rate of 1.1.
  await expect(converter.getByRole('status', { name: 'Conversion result' })).toHaveText('30.00000000 ETH');
  await expect(converter.getByTestId('conversion-value')).toHaveText('€54,545.45');
  await converter.getByLabel('Amount').fill('3');
  await expect(converter.getByRole('status', { name: 'Conversion result' })).toHaveCount(0);

  const prices = page.getByRole('row', { name: /Ethereum/ });
  await expect(prices).toContainText('$2,000.00');
  await expect(prices).toContainText('-2.10%');

  // Checked at rest: no pointer over a button, the 'Login successful' toast closed.
  await page.mouse.move(0, 0);
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test('a newcomer with a 0 balance is told how to add funds, and what the wallet code is for', async ({
  page,
}) => {
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await openSignedIn(page, await existingUser('wallet-newcomer'));

  await expect(page.getByTestId('wallet-balance')).toHaveText('$0.00');
  await expect(page.getByTestId('add-funds-help')).toHaveText(
    'To add funds, ask support: deposits are made by an admin. E-mail support@coinvault.example from the address you signed up with, saying the amount.',
  );
  await expect(page.getByRole('link', { name: 'support@coinvault.example' })).toHaveAttribute(
    'href',
    'mailto:support@coinvault.example',
  );
  await expect(
    page.getByText('It is not a Bitcoin address: coins sent to it are not received.'),
  ).toBeVisible();
  await expect(page.getByText('Share it to receive funds')).toHaveCount(0);
});

test('a signed-in person sees their links on the landing page, and an unknown URL a 404 page', async ({
  page,
}) => {
  await skipLimitsNotices(page);
  await openSignedIn(page, await existingUser('landing-signed-in'));

  await page.goto('/');
  const header = page.getByRole('banner');
  await expect(page.getByRole('link', { name: 'Go to my area' })).toHaveAttribute('href', '/dashboard');
  await expect(header.getByRole('link', { name: 'Account' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Login' })).toHaveCount(0);
  await expect(header.getByRole('link', { name: 'Sign Up' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Get Started' })).toHaveCount(0);

  for (const path of ['/no-such-page', '/user/no-such-page']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByText(`There is no page at ${path}.`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page).toHaveTitle(/Page not found/);
  }
  await page.getByRole('link', { name: 'Go to my area' }).click();
  await expect(page).toHaveURL(/\/user\/wallet$/);
});

test('the limits notice shows once per browser session, after a delay, and not again after a reload or in a new tab', async ({
  page,
}) => {
  const person = await fundedUser(100);
  const admin = await workerAdminClient();
  const { data: limits } = await admin
    .from('transaction_limits')
    .select('min_amount, max_amount')
    .single()
    .throwOnError();
  const usd = (amount: number) => amount.toLocaleString('en-US', { style: 'currency', currency: 'USD' });

  await openSignedIn(page, person);
  const notice = page.getByRole('dialog', { name: 'Important Transaction Limits' });
  // It waits 1.5 s after the wallet opens, so it cannot be there the moment the wallet opens.
  await expect(notice).toBeHidden();
  await expect(notice).toBeVisible({ timeout: 10_000 });
  await expect(notice).toContainText(usd(Number(limits.min_amount)));
  await expect(notice).toContainText(usd(Number(limits.max_amount)));

  await notice.getByRole('button', { name: 'I Understand' }).click();
  await expect(notice).toBeHidden();
  expect(await limitsNoticeSeen(page, 'wallet')).toBe(true);

  await page.reload();
  await expect(page.getByTestId('wallet-balance')).toBeVisible();
  // A second tab of the same browser session: still the same session, so no notice either.
  const secondTab = await page.context().newPage();
  await secondTab.goto('/user/wallet');
  await expect(secondTab.getByTestId('wallet-balance')).toBeVisible();
  // A notice opened later on another page shows: had the wallet's been due, it would be showing by now.
  await untilALaterNoticeShows(page, 'buy');
  await expect(notice).toHaveCount(0);
  await expect(secondTab.getByRole('dialog', { name: 'Important Transaction Limits' })).toHaveCount(0);
});

test("an admin's deposit and its completion, made in another browser, appear in the wallet without a reload", async ({
  page,
  browser,
}) => {
  const person = await fundedUser(1000);
  await skipLimitsNotices(page);
  await openSignedIn(page, person);
  const balance = page.getByTestId('wallet-balance');
  await expect(balance).toHaveText('$1,000.00');
  const rows = page.getByRole('table', { name: 'Recent Transactions' }).getByRole('row');
  await expect(rows).toHaveCount(2);
  // A reload would lose this marker.
  await page.evaluate(() => Object.assign(window, { walletDocument: 'unchanged' }));

  const adminContext = await browser.newContext({ locale: 'en-US' });
  try {
    const admin = await adminContext.newPage();
    await openAsWorkerAdmin(admin, '/admin/deposit');
    await admin.getByLabel('Find a user').fill(person.email);
    const user = admin.getByLabel('User', { exact: true });
    await expect(user.locator(`option[value="${person.id}"]`)).toHaveCount(1);
    await user.selectOption(person.id);
    await admin.getByLabel('Amount (USD)').fill('250');
    await admin.getByRole('button', { name: 'Create deposit' }).click();
    await confirmAdminAction(admin, 'Create deposit');

    await expect(rows).toHaveCount(3);
    const newest = rows.nth(1);
    await expect(newest).toContainText('Deposit');
    await expect(newest).toContainText('$250.00');
    await expect(newest.getByText('pending')).toHaveAttribute('data-tone', 'yellow');
    // A pending deposit does not count yet.
    await expect(balance).toHaveText('$1,000.00');

    await admin.goto('/admin/transactions');
    await applyStatus(
      admin.getByRole('row').filter({ hasText: person.email }).filter({ hasText: '$250.00' }),
      'complete',
    );
    await confirmAdminAction(admin, 'Change status');

    await expect(newest.getByText('complete')).toHaveAttribute('data-tone', 'green');
    await expect(balance).toHaveText('$1,250.00');
    expect(await page.evaluate(() => (window as Window & { walletDocument?: string }).walletDocument)).toBe(
      'unchanged',
    );
  } finally {
    await adminContext.close();
  }
});

test('the transactions list shows the newest 50 and loads older ones on request, never the whole ledger at once', async ({
  page,
}) => {
  const person = await fundedUser(100);
  const admin = await workerAdminClient();
  // 54 more deposits: 55 transactions in all, one page and five older.
  for (let i = 0; i < 54; i += 1) await idOf(createDeposit(admin, person.id, i + 1));
  const reads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/rest/v1/transactions'))
      reads.push(request.headers()['range'] ?? request.url());
  });
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await openSignedIn(page, person);

  const rows = page.getByRole('table', { name: 'Recent Transactions' }).getByRole('row');
  await expect(rows).toHaveCount(51); // the header and 50 transactions
  await page.getByRole('button', { name: 'Show older transactions' }).click();
  await expect(rows).toHaveCount(56);
  await expect(page.getByRole('button', { name: 'Show older transactions' })).toHaveCount(0);
  // Each read asks for a page (and one row more, to know whether older ones exist), not for everything.
  expect(reads.length).toBeGreaterThanOrEqual(2);
  expect(reads.every((read) => read.includes('limit=51'))).toBe(true);
});
