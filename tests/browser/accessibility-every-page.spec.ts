import { expect, test, type Page } from '@playwright/test';
import { personWithBalance, submitBuyRequest, submitWalletWithdrawal } from './support/admin-people';
import { accessibilityViolationsInBothThemes } from './support/accessibility';
import { openSignedIn } from './support/auth-people';
import { openAsWorkerAdmin, signUpBitcoinHolder, workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';
import { openFromMenu } from './support/navigation';
import { idOf, requestBuy } from '../support/keyed-calls';

test.use({ locale: 'en-US' });

/** Waits until the page shown has loaded its data, then gathers axe's moderate and worse findings on it. */
async function findingsOnceLoaded(page: Page, where: string): Promise<string[]> {
  await expect(page.locator('[aria-busy="true"]'), where).toHaveCount(0);
  await expect(page.locator('.animate-pulse'), where).toHaveCount(0);
  return (await accessibilityViolationsInBothThemes(page, 'moderate')).map((line) => `${where} ${line}`);
}

/**
 * Walks the signed-in area through its side menu, as a person does (one load of the app for the whole
 * area), and gathers the findings of each page; `first` is the page shown already.
 */
async function findingsThroughTheMenu(
  page: Page,
  first: string,
  entries: readonly { label: string; heading: string }[],
): Promise<string[]> {
  const found = await findingsOnceLoaded(page, first);
  for (const { label, heading } of entries) {
    await openFromMenu(page, label, heading);
    found.push(...(await findingsOnceLoaded(page, label)));
  }
  return found;
}

test('axe finds nothing of moderate impact or worse on any public page, in the light and the dark theme', async ({
  page,
}) => {
  // Each page is checked twice (two themes) once its data has loaded.
  test.setTimeout(180_000);
  // The landing page's market table as the provider answers it: a coin that rose and one that fell.
  await stubMarketProvider(page);
  const pages = [
    '/',
    '/login',
    '/signup',
    '/reset-password',
    '/terms-of-service',
    '/privacy-policy',
    '/disclaimer',
    '/proof',
    '/no-such-page',
  ];
  const found: string[] = [];
  for (const path of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible({ timeout: 30_000 });
    if (path === '/')
      await expect(
        page.getByRole('region', { name: 'Live Cryptocurrency Market Data' }).getByRole('table'),
      ).toContainText('Ethereum');
    found.push(...(await findingsOnceLoaded(page, path)));
  }
  expect(found).toEqual([]);
});

test("axe finds nothing of moderate impact or worse on any of a person's pages, in the light and the dark theme", async ({
  page,
}) => {
  // Each page is checked twice (two themes) once its data has loaded.
  test.setTimeout(180_000);
  // Bitcoin held and a buy request waiting: the wallet's holdings and the buy page's request list have rows.
  const { holder, client } = await signUpBitcoinHolder(await workerAdminClient(), 500, 100);
  await idOf(requestBuy(client, 'bitcoin', 20));
  await client.auth.signOut({ scope: 'local' });
  await skipLimitsNotices(page);
  await openSignedIn(page, holder);
  await expect(page.getByRole('heading', { name: 'Your Wallet', level: 1 })).toBeVisible();
  const found = await findingsThroughTheMenu(page, 'Wallet', [
    { label: 'Buy', heading: 'Buy Cryptocurrency' },
    { label: 'Recurring buys', heading: 'Recurring buys' },
    { label: 'Price alerts', heading: 'Price alerts' },
    { label: 'Withdraw', heading: 'Withdraw Funds' },
    { label: 'Account', heading: 'Account' },
  ]);
  // The statement and the gains report are not in the menu: they open from the account page's cards.
  for (const [path, heading] of [
    ['/user/statement', 'Statement'],
    ['/user/gains', /^Gains report \d{4}$/],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    found.push(...(await findingsOnceLoaded(page, path)));
  }
  expect(found).toEqual([]);
});

test('axe finds nothing of moderate impact or worse on any admin page, reached from the side menu, in the light and the dark theme', async ({
  page,
}) => {
  // Each page is checked twice (two themes) once its data has loaded.
  test.setTimeout(180_000);
  // Pending requests make the queues their widest (Approve and Reject buttons on the row).
  const person = await personWithBalance(await workerAdminClient(), 'Accessible', 500);
  await submitBuyRequest(person, 100);
  await submitWalletWithdrawal(person, 100, '0x1111222233334444555566667777888899990000');
  await openAsWorkerAdmin(page);
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  expect(
    await findingsThroughTheMenu(page, 'Users', [
      { label: 'Frozen accounts', heading: 'Frozen accounts' },
      { label: 'Transactions', heading: 'Transactions' },
      { label: 'Deposit', heading: 'Deposit' },
      { label: 'Status types', heading: 'Status types' },
      { label: 'Buy requests', heading: 'Buy requests' },
      { label: 'Sell requests', heading: 'Sell requests' },
      { label: 'Withdraw requests', heading: 'Withdraw requests' },
      { label: 'Settings', heading: 'Settings' },
      { label: 'Audit log', heading: 'Audit log' },
      { label: 'Ledger', heading: 'Ledger' },
    ]),
  ).toEqual([]);
});
