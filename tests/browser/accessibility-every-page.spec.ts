import { expect, test, type Page } from '@playwright/test';
import { accessibilityViolationsInBothThemes } from './support/accessibility';
import { openSignedIn } from './support/auth-people';
import { openAsWorkerAdmin, signUpBitcoinHolder, workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';

test.use({ locale: 'en-US' });

/** Opens each page in turn, waits until its data has loaded, and gathers axe's moderate and worse findings. */
async function findingsOn(page: Page, paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('[aria-busy="true"]'), path).toHaveCount(0);
    await expect(page.locator('.animate-pulse'), path).toHaveCount(0);
    found.push(
      ...(await accessibilityViolationsInBothThemes(page, 'moderate')).map((line) => `${path} ${line}`),
    );
  }
  return found;
}

test('axe finds nothing of moderate impact or worse on any public page, in the light and the dark theme', async ({
  page,
}) => {
  // Each page is checked twice (two themes) once its data has loaded.
  test.setTimeout(360_000);
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
  expect(await findingsOn(page, pages)).toEqual([]);
});

test("axe finds nothing of moderate impact or worse on any of a person's pages, in the light and the dark theme", async ({
  page,
}) => {
  // Each page is checked twice (two themes) once its data has loaded.
  test.setTimeout(360_000);
  const { holder, client } = await signUpBitcoinHolder(await workerAdminClient(), 500, 100);
  await client.auth.signOut({ scope: 'local' });
  await skipLimitsNotices(page);
  await openSignedIn(page, holder);
  const pages = [
    'wallet',
    'buy',
    'withdraw',
    'account',
    'statement',
    'gains',
    'price-alerts',
    'recurring-buys',
  ];
  expect(
    await findingsOn(
      page,
      pages.map((name) => `/user/${name}`),
    ),
  ).toEqual([]);
});

test('axe finds nothing of moderate impact or worse on any admin page, in the light and the dark theme', async ({
  page,
}) => {
  // Each page is checked twice (two themes) once its data has loaded.
  test.setTimeout(360_000);
  await openAsWorkerAdmin(page);
  const pages = [
    'users',
    'frozen-accounts',
    'transactions',
    'deposit',
    'status-types',
    'buy-requests',
    'sell-requests',
    'withdraw-requests',
    'settings',
    'audit-log',
    'ledger',
  ];
  expect(
    await findingsOn(
      page,
      pages.map((name) => `/admin/${name}`),
    ),
  ).toEqual([]);
});
