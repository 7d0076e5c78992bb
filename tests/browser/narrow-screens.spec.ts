import { expect, test, type Locator, type Page } from '@playwright/test';
import { existingUser, openSignedIn } from './support/auth-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';
import { openAsWorkerAdmin } from './support/buy-people';
import { showInApp } from './support/navigation';

// The narrowest phones in common use.
test.use({ locale: 'en-US', viewport: { width: 360, height: 780 } });

// The wallet and withdraw pages' limits notices (modals) are not what these tests are about.
test.beforeEach(async ({ page }) => {
  await skipLimitsNotices(page);
  await stubMarketProvider(page);
});

/** How many lines a piece of text takes on screen. */
const linesOf = (text: Locator) =>
  text.evaluate(
    (element) => element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight),
  );

/** How far the page itself scrolls sideways (0: it fits the window). */
const pageOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** A page's address and its level-1 heading. */
type PageHeading = [path: string, heading: string];

/**
 * Opens a page and waits for its heading and its data: the area's first page loads the app, the others are
 * shown by it (a page is laid out the same either way; each load would start the whole app again).
 */
async function open(page: Page, path: string, heading: string) {
  const title =
    new URL(page.url()).pathname === path
      ? page.getByRole('heading', { name: heading, level: 1 })
      : await showInApp(page, path, heading);
  await expect(title).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  return title;
}

/**
 * Pages and their headings, opened one after the other: none scrolls sideways. In the signed-in area the
 * top bar is measured once its notification bell (loaded beside the page) is in it, the bar at its widest.
 */
async function expectNoneScrollsSideways(page: Page, pages: PageHeading[], area: 'public' | 'signed-in') {
  for (const [path, heading] of pages) {
    await open(page, path, heading);
    if (area === 'signed-in')
      await expect(page.getByRole('button', { name: /^Notifications/ })).toBeVisible();
    expect(await pageOverflow(page), `${path} scrolls sideways`).toBeLessThanOrEqual(0);
  }
}

test('at 360 px wide, no public page scrolls sideways', async ({ page }) => {
  await page.goto('/');
  await expectNoneScrollsSideways(
    page,
    [
      ['/', 'Welcome to the product'],
      ['/login', 'Log in'],
      ['/signup', 'Create your account'],
      ['/reset-password', 'Reset your password'],
      ['/terms-of-service', 'Terms of Service'],
      ['/privacy-policy', 'Privacy Policy'],
      ['/disclaimer', 'Disclaimer'],
    ],
    'public',
  );
});

test('at 360 px wide, no user page scrolls sideways', async ({ page }) => {
  await openSignedIn(page, await existingUser('narrow-pages'));
  await expectNoneScrollsSideways(
    page,
    [
      ['/user/wallet', 'Your Wallet'],
      ['/user/buy', 'Buy Cryptocurrency'],
      ['/user/recurring-buys', 'Recurring buys'],
      ['/user/price-alerts', 'Price alerts'],
      ['/user/withdraw', 'Withdraw Funds'],
      ['/user/account', 'Account'],
      ['/user/security-log', 'Security log'],
      ['/user/statement', 'Statement'],
    ],
    'signed-in',
  );
});

test('at 360 px wide, no admin page scrolls sideways', async ({ page }) => {
  await openAsWorkerAdmin(page);
  await expectNoneScrollsSideways(
    page,
    [
      ['/admin/users', 'Users'],
      ['/admin/frozen-accounts', 'Frozen accounts'],
      ['/admin/transactions', 'Transactions'],
      ['/admin/deposit', 'Deposit'],
      ['/admin/status-types', 'Status types'],
      ['/admin/buy-requests', 'Buy requests'],
      ['/admin/withdraw-requests', 'Withdraw requests'],
      ['/admin/settings', 'Settings'],
      ['/admin/audit-log', 'Audit log'],
    ],
    'signed-in',
  );
});

test('at 360 px wide, an admin list’s pager reads each of its parts on one line and both its buttons fit', async ({
  page,
}) => {
  await openAsWorkerAdmin(page);
  const pager = page.getByRole('navigation', { name: /pages$/ });
  const rowsShown = pager.getByText(/^\d[\d,]*–\d[\d,]* of \d[\d,]*$/);
  const pageNumber = pager.getByText(/^Page \d+ of \d+$/);
  await expect(rowsShown).toBeVisible();
  for (const text of [rowsShown, pageNumber]) expect(Math.round(await linesOf(text))).toBe(1);
  for (const name of ['Previous', 'Next']) {
    const button = pager.getByRole('button', { name });
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeInViewport({ ratio: 1 });
  }
});

// The signed-in area's main region keeps 16 px from the edges on a phone; a page adding its own leaves a
// table or form that much narrower.
const phoneMargin = 16;

/** Each page's heading starts at the main area's margin. */
async function expectHeadingsAtMargin(page: Page, pages: PageHeading[]) {
  for (const [path, heading] of pages) {
    const title = await open(page, path, heading);
    expect((await title.boundingBox())?.x, path).toBe(phoneMargin);
  }
}

test('on a phone, the user’s pages keep the main area’s margin and add none', async ({ page }) => {
  await openSignedIn(page, await existingUser('phone-margins'));
  await expectHeadingsAtMargin(page, [
    ['/user/wallet', 'Your Wallet'],
    ['/user/withdraw', 'Withdraw Funds'],
  ]);
});

test('on a phone, the admin’s pages keep the main area’s margin and add none', async ({ page }) => {
  await openAsWorkerAdmin(page);
  await expectHeadingsAtMargin(page, [
    ['/admin/users', 'Users'],
    ['/admin/buy-requests', 'Buy requests'],
  ]);
});
