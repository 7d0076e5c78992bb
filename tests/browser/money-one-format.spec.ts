import { expect, test, type Page } from '@playwright/test';
import { openSignedIn } from './support/auth-people';
import { signUpBitcoinHolder, workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';

// A locale whose own way of writing US dollars is "US$20,000.00": the app writes "$" whatever the locale.
test.use({ locale: 'en-GB', timezoneId: 'UTC' });

/** Every amount in dollars on the page, except a chart axis's shortened ones ($1.5K). */
async function dollarAmounts(page: Page): Promise<string[]> {
  const text = await page.locator('main').innerText();
  return text.match(/(?:US)?\$-?\d[\d,]*(?:\.\d+)?(?![\dKMB])/g) ?? [];
}

test('money is in one format on each of the person’s screens: "$20,000.00", never "US$" nor without cents', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const { holder } = await signUpBitcoinHolder(admin, 20000, 300);
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await openSignedIn(page, holder);

  const today = new Date().toISOString().slice(0, 10);
  // Two days back: the deposit is in the period even if the test runs across midnight or a month's end.
  const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const screens: [path: string, shown: string][] = [
    ['/user/wallet', '$19,700.00'],
    ['/user/buy', '$19,700.00'],
    ['/user/withdraw', '$19,700.00'],
    [`/user/statement?from=${twoDaysAgo}&to=${today}`, '$20,000.00'],
  ];
  for (const [path, shown] of screens) {
    await page.goto(path);
    await expect(page.locator('main').getByText(shown).first()).toBeVisible();
    const amounts = await dollarAmounts(page);
    expect(amounts.length, path).toBeGreaterThan(0);
    for (const amount of amounts) expect(amount, path).toMatch(/^-?\$-?\d{1,3}(,\d{3})*\.\d{2}$/);
  }
});
