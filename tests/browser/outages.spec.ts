import { expect, test, type Page } from '@playwright/test';
import { personWithBalance } from './support/admin-people';
import { logIn, toast } from './support/auth-people';
import { workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';
import { aSecondAtATimeUntil } from './support/page-clock';

test.beforeEach(async ({ page }) => skipLimitsNotices(page));

/** The buy page's own chunk (its file name and Vite's 8-character content hash). */
const buyPageChunk = /\/assets\/buy-[\w-]{8}\.js$/;

/** Counts the page's full loads of the app from now on. */
function countPageLoads(page: Page): () => number {
  let loads = 0;
  page.on('load', () => (loads += 1));
  return () => loads;
}

async function signedInPerson(page: Page, balance = 100) {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Outage', balance);
  await logIn(page, person);
  return { admin, person };
}

test('a page whose code failed to load (a deploy replaced it) reloads once by itself and then shows', async ({
  page,
}) => {
  await signedInPerson(page);
  // Away from the wallet first: its preload of the other pages must not be the request that fails.
  await page.goto('about:blank');
  // Every request for the chunk fails until the page loads again (the area's idle preload may ask for it
  // before the route does, and a failed preload alone is no failed page).
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations += 1;
  });
  await page.route(buyPageChunk, (route) => (navigations <= 1 ? route.abort('failed') : route.continue()));
  const loads = countPageLoads(page);
  await page.goto('/user/buy');
  await expect(page.getByRole('heading', { name: 'Buy Cryptocurrency', level: 1 })).toBeVisible();
  expect(loads()).toBe(2);
  await expect(page.getByText('Unexpected Application Error!')).toHaveCount(0);
});

test('code still missing after that reload: the error screen offers Reload, with no raw address', async ({
  page,
}) => {
  await signedInPerson(page);
  await page.route(buyPageChunk, (route) => route.abort('failed'));
  const loads = countPageLoads(page);
  await page.goto('/user/buy');
  const screen = page.getByRole('alert');
  await expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(screen).not.toContainText('/assets/');
  await expect(screen).not.toContainText('http');
  expect(loads()).toBe(2);

  await page.unroute(buyPageChunk);
  await screen.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('heading', { name: 'Buy Cryptocurrency', level: 1 })).toBeVisible();
});

test('a person deleted by an admin is signed out with a message, not left in a half-working wallet', async ({
  page,
}) => {
  // Holding nothing, so the books let the account close.
  const { admin, person } = await signedInPerson(page, 0);
  await expect(page.getByTestId('wallet-balance')).toHaveText('$0.00');
  const { error } = await admin.functions.invoke('admin-delete-user', { body: { userId: person.id } });
  if (error) throw error;

  await page.reload();
  await expect(
    toast(
      page,
      'Your session has ended: the account was removed or signed out elsewhere. Please log in again.',
    ),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
});

test('when the market feed is down, the wallet marks its fallback prices as not current', async ({
  page,
}) => {
  await stubMarketProvider(page, () => false);
  await signedInPerson(page);
  await expect(
    page.getByText('Sample prices, not current: live market data cannot be reached right now.'),
  ).toBeVisible();
});

test('an error shown while the API was down clears by itself once the API is back', async ({ page }) => {
  let apiUp = false;
  // The connection to the API drops for the wallet's transaction list (an outage, not a fake answer).
  await page.route('**/rest/v1/transactions?**', (route) =>
    apiUp ? route.continue() : route.abort('connectionrefused'),
  );
  // The page's clock is moved on rather than waited for: supabase-js tries a lost connection 3 more times
  // (1, 2 and 4 s apart) before the error shows, and a read that failed is tried again every 10 s.
  await page.clock.install();
  await signedInPerson(page);
  const error = page.getByText('Failed to fetch transactions');
  await aSecondAtATimeUntil(page, () => expect(error).toBeVisible({ timeout: 100 }));

  apiUp = true;
  await aSecondAtATimeUntil(page, () => expect(error).toBeHidden({ timeout: 100 }));
  await expect(page.getByRole('table', { name: 'Recent Transactions' })).toContainText('$100.00');
});
