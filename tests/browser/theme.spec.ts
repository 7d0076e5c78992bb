import { expect, test } from '@playwright/test';
import { seriousAccessibilityViolationsInBothThemes } from './support/accessibility';
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
