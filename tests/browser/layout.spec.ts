import { expect, test, type Page } from '@playwright/test';
import { personWithBalance, submitBuyRequest, submitWalletWithdrawal } from './support/admin-people';
import { openSignedIn } from './support/auth-people';
import { workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';
import { showInApp } from './support/navigation';

test.beforeEach(async ({ page }) => skipLimitsNotices(page));

const widths = [1366, 1280, 1024, 390];
const signedInPages = [
  { path: '/user/wallet', heading: 'Your Wallet' },
  { path: '/user/buy', heading: 'Buy Cryptocurrency' },
  { path: '/user/withdraw', heading: 'Withdraw Funds' },
  { path: '/user/account', heading: 'Account' },
];

/** How far the page itself scrolls sideways (0: it fits the window). */
const pageOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('no signed-in page scrolls sideways at 1366, 1280, 1024 or 390 wide; a table fits, scrolls in a named box, or is cards on a phone', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Layout', 500);
  await submitBuyRequest(person, 20);
  await submitWalletWithdrawal(person, 30, '0x1111222233334444555566667777888899990000');
  await stubMarketProvider(page);
  await openSignedIn(page, person);

  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    for (const { path, heading } of signedInPages) {
      await showInApp(page, path, heading);
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      expect(await pageOverflow(page), `${path} at ${width}`).toBeLessThanOrEqual(0);
      // Every table either fits or is a named scrolling region with its hint.
      for (const box of await page.locator('[data-scrolls]').all()) {
        await expect(box).toHaveAttribute('role', 'region');
        await expect(box).toHaveAttribute('aria-label', /scrolls sideways$/);
      }
    }
  }
  // On a phone the wallet's tables are list rows (cards): none needs to scroll sideways.
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto('/user/wallet');
  await expect(page.getByTestId('portfolio-usd-balance')).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.locator('[data-scrolls]')).toHaveCount(0);
});
