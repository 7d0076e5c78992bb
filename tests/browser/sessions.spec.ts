import { expect, test } from '@playwright/test';
import { seriousAccessibilityViolationsInBothThemes } from './support/accessibility';
import { existingUser, liveSessionsOf, logIn, toast } from './support/auth-people';

test('the account page lists where the person is signed in, and "Sign out everywhere else" ends the other browser\'s session', async ({
  page,
  browser,
}) => {
  const account = await existingUser('sessions');
  const otherBrowser = await browser.newContext();
  const otherPage = await otherBrowser.newPage();
  await logIn(otherPage, account);
  await logIn(page, account);

  await page.goto('/user/account');
  const sessions = page.getByRole('list', { name: 'Signed-in sessions' }).getByTestId('session');
  await expect(sessions.first()).toBeVisible();
  const listed = await sessions.count();
  expect(listed).toBe(await liveSessionsOf(account.email));
  expect(listed).toBeGreaterThanOrEqual(2);
  // This browser first, named by its user agent (Chromium's, whatever system it claims), with its address.
  await expect(sessions.first()).toContainText(/^Chrome on (Windows|Linux|macOS)This device/);
  await expect(sessions.first()).toContainText('This device');
  await expect(sessions.first()).toContainText('127.0.0.1');
  await expect(page.getByText('This device')).toHaveCount(1);
  expect(await seriousAccessibilityViolationsInBothThemes(page)).toEqual([]);

  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(toast(page, 'Signed out everywhere else')).toBeVisible();
  await expect(sessions).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
  expect(await liveSessionsOf(account.email)).toBe(1);

  // The other browser's session is over: on its next load it learns why and goes to the log-in page.
  await otherPage.reload();
  await expect(otherPage).toHaveURL(/\/login$/);
  await expect(
    toast(
      otherPage,
      'Your session has ended: the account was removed or signed out elsewhere. Please log in again.',
    ),
  ).toBeVisible();
  await otherBrowser.close();

  // This one goes on.
  await page.reload();
  await expect(sessions).toHaveCount(1);
});
