import { expect, test, type Page } from '@playwright/test';
import { seriousAccessibilityViolations } from './support/accessibility';
import { existingUser, openSignedIn } from './support/auth-people';

test.use({ locale: 'en-US' });

const marketSection = (page: Page) => page.getByRole('region', { name: 'Live Cryptocurrency Market Data' });

/** The coins' names in the order the market table shows them (the wide screen's table). */
async function tableOrder(page: Page) {
  const rows = marketSection(page).getByRole('table').locator('tbody tr');
  return (await rows.allInnerTexts()).map((text) => text.split('\n').find((line) => /[a-z]/i.test(line)));
}

test('a signed-in person stars a coin on the market table: it comes first, and stays so for them alone', async ({
  page,
  browser,
}) => {
  const person = await existingUser('watcher');
  await openSignedIn(page, person, '/');
  const star = marketSection(page).getByRole('table').getByRole('button', { name: 'Watch Solana' });
  await expect(star).toHaveAttribute('aria-pressed', 'false');
  const before = await tableOrder(page);
  expect(before[0]).toBe('Bitcoin');
  expect(before.indexOf('Solana')).toBeGreaterThan(0);

  await star.click();
  await expect(star).toHaveAttribute('aria-pressed', 'true');
  await expect
    .poll(() => tableOrder(page))
    .toEqual(['Solana', ...before.filter((name) => name !== 'Solana')]);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  // Kept on the server: after a reload, and in this person's other browser.
  await page.reload();
  await expect(
    marketSection(page).getByRole('table').getByRole('button', { name: 'Watch Solana' }),
  ).toHaveAttribute('aria-pressed', 'true');
  expect((await tableOrder(page))[0]).toBe('Solana');

  // Someone else's market table is their own.
  const other = await (await browser.newContext({ locale: 'en-US' })).newPage();
  await openSignedIn(other, await existingUser('other-watcher'), '/');
  await expect(
    marketSection(other).getByRole('table').getByRole('button', { name: 'Watch Solana' }),
  ).toHaveAttribute('aria-pressed', 'false');
  expect((await tableOrder(other))[0]).toBe('Bitcoin');
  await other.context().close();

  // Unstarred, the coin goes back to its place by market cap.
  await marketSection(page).getByRole('table').getByRole('button', { name: 'Watch Solana' }).click();
  await expect.poll(() => tableOrder(page)).toEqual(before);
});

test('on a phone the cards carry the stars, starred coins first', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page, await existingUser('phone-watcher'), '/');
  const cards = marketSection(page).getByRole('listitem');
  await cards.getByRole('button', { name: 'Watch Ethereum' }).click();
  await expect(cards.first().getByRole('button', { name: 'Watch Ethereum' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const width = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(width.scrollWidth).toBeLessThanOrEqual(width.clientWidth);
});

test('a visitor sees no stars, and downloads no watchlist code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/');
  await expect(marketSection(page).getByRole('table').getByRole('row')).toHaveCount(11);
  await expect(marketSection(page).getByRole('button', { name: /^Watch / })).toHaveCount(0);
  expect(scripts.filter((url) => url.includes('landing-market-watchlist'))).toEqual([]);
});
