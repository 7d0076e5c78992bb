import { expect, test } from '@playwright/test';
import { personWithBalance, submitBuyRequest } from './support/admin-people';
import { seriousAccessibilityViolationsInBothThemes } from './support/accessibility';
import { openSignedIn } from './support/auth-people';
import { workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';

test.beforeEach(async ({ page }) => skipLimitsNotices(page));

const isDark = () => document.documentElement.classList.contains('dark');

test('the theme follows the system until the toggle picks one, which is remembered', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  expect(await page.evaluate(isDark)).toBe(true);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => page.evaluate(isDark)).toBe(false);

  const toggle = page.getByRole('button', { name: 'Dark theme' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  expect(await page.evaluate(isDark)).toBe(true);
  await page.reload();
  expect(await page.evaluate(isDark)).toBe(true);
  await expect(page.getByRole('button', { name: 'Dark theme' })).toHaveAttribute('aria-pressed', 'true');
});

const publicPages = [
  '/',
  '/login',
  '/signup',
  '/reset-password',
  '/terms-of-service',
  '/privacy-policy',
  '/disclaimer',
];
const signedInPages = [
  { path: '/user/wallet', heading: 'Your Wallet' },
  { path: '/user/buy', heading: 'Buy Cryptocurrency' },
  { path: '/user/withdraw', heading: 'Withdraw Funds' },
  { path: '/user/account', heading: 'Account' },
];

test('every public and user page has no serious accessibility violation in the light and the dark theme', async ({
  page,
}) => {
  // Nine pages, each checked by axe in both themes, and a person set up through the worker's admin (password
  // and code): past the default minute on a machine shared by other test runs, as the admin pages' tour.
  test.setTimeout(180_000);
  await stubMarketProvider(page);
  for (const path of publicPages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    expect(await seriousAccessibilityViolationsInBothThemes(page), path).toEqual([]);
  }
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Themes', 500);
  await submitBuyRequest(person, 20);
  await openSignedIn(page, person);
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
  for (const { path, heading } of signedInPages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    expect(await seriousAccessibilityViolationsInBothThemes(page), path).toEqual([]);
  }
});

test('the market table’s rises and falls stay readable with the pointer on their rows, in both themes', async ({
  page,
}) => {
  // Bitcoin rose and Ethereum fell.
  await stubMarketProvider(page);
  await page.goto('/');
  const table = page.getByRole('region', { name: 'Live Cryptocurrency Market Data' }).getByRole('table');
  for (const coin of ['Bitcoin', 'Ethereum']) {
    await table.getByRole('row').filter({ hasText: coin }).hover();
    expect(await seriousAccessibilityViolationsInBothThemes(page), `pointer on ${coin}`).toEqual([]);
  }
});
