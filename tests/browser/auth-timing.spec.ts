import { expect, test, type Page } from '@playwright/test';
import { existingUser, fillLogin, logIn, toast } from './support/auth-people';

/**
 * Spec §9 timing, with the page's clock under the test's control: the access token (one hour) is
 * refreshed 5 minutes before it expires, also when a sleeping machine wakes; a stalled request gives
 * up after 30 s on a desktop and 60 s on a small screen.
 */

const isRefresh = (url: string) => url.includes('/auth/v1/token') && url.includes('grant_type=refresh_token');

test('the access token is refreshed 5 minutes before it expires, not later', async ({ page }) => {
  await page.clock.install();
  await logIn(page, await existingUser('refresh'));
  const refreshes: string[] = [];
  page.on('request', (request) => {
    if (isRefresh(request.url())) refreshes.push(request.url());
  });

  await page.clock.runFor('54:00');
  expect(refreshes).toEqual([]);
  const refreshed = page.waitForRequest((request) => isRefresh(request.url()));
  await page.clock.runFor('01:30');
  await refreshed;
});

test('a tab that slept past the refresh point refreshes as soon as it wakes', async ({ page }) => {
  await page.clock.install();
  await logIn(page, await existingUser('sleep'));
  // The machine sleeps: the clock jumps 57 minutes while no timer runs.
  const refreshed = page.waitForRequest((request) => isRefresh(request.url()));
  await page.clock.pauseAt(Date.now() + 57 * 60_000);
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  const refresh = await (await refreshed).response();
  expect(refresh?.status()).toBe(200);
  expect(await refresh?.json()).toMatchObject({ access_token: expect.any(String), expires_in: 3600 });
});

async function stalledLogIn(page: Page) {
  await page.clock.install();
  await page.goto('/login');
  // The server accepts the connection but never answers.
  await page.route('**/auth/v1/token**', () => {});
  const sent = page.waitForRequest('**/auth/v1/token**');
  await fillLogin(page, await existingUser('stalled'));
  // The give-up timer starts as the request leaves; the clock must not move before it exists.
  await sent;
}

const timeOutMessage =
  'The server is taking too long to respond. Please check your connection and try again.';

test('a stalled log-in gives up after 30 seconds on a desktop with a clear message', async ({ page }) => {
  await stalledLogIn(page);
  await page.clock.runFor(29_000);
  await expect(page.getByRole('button', { name: 'Logging in…' })).toBeVisible();
  await page.clock.runFor(1_500);
  await expect(toast(page, timeOutMessage)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeEnabled();
});

test.describe('on a small screen', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a stalled log-in waits 60 seconds before giving up', async ({ page }) => {
    await stalledLogIn(page);
    await page.clock.runFor(45_000);
    await expect(page.getByRole('button', { name: 'Logging in…' })).toBeVisible();
    await page.clock.runFor(16_000);
    await expect(toast(page, timeOutMessage)).toBeVisible();
  });
});
