import { expect, test, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { unusedTotpCode } from '../support/two-factor-sign-in';
import { seriousAccessibilityViolations } from './support/accessibility';
import {
  enterTotpCode,
  existingUser,
  fillLogin,
  logIn,
  makeAdmin,
  openSignedIn,
  toast,
} from './support/auth-people';
import { openAsWorkerAdmin, signUpFundedBuyer, workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';

test.use({ locale: 'en-US' });

/**
 * The secret the QR code on the page carries, read from the picture's own pixels as an authenticator app
 * scans it. A screenshot would also scan whatever is around the picture at the moment of capture (what
 * overlaps it, where the page has scrolled): in one CI run such scans stayed unreadable for 10 s, which
 * three local runs of the suite did not reproduce. That the picture shows, at its own size (sharp at
 * GoTrue's 3 px per module), is asserted on the page.
 */
async function scanQrSecret(page: Page): Promise<string> {
  const picture = page.getByTestId('two-factor-qr');
  await expect(picture).toBeVisible();
  await expect(picture).toHaveJSProperty('complete', true);
  const { shownWidth, naturalWidth, png } = await picture.evaluate((image: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    canvas.getContext('2d')?.drawImage(image, 0, 0);
    return { shownWidth: image.width, naturalWidth: image.naturalWidth, png: canvas.toDataURL('image/png') };
  });
  expect(naturalWidth, 'the QR code is a picture that loaded').toBeGreaterThan(0);
  expect(shownWidth, 'the QR code shows at its own size').toBe(naturalWidth);
  const pixels = PNG.sync.read(Buffer.from(png.slice(png.indexOf(',') + 1), 'base64'));
  const scanned = jsQR(new Uint8ClampedArray(pixels.data), pixels.width, pixels.height)?.data ?? '';
  expect(scanned).toMatch(/^otpauth:\/\/totp\//);
  const secret = new URL(scanned).searchParams.get('secret');
  if (!secret) throw new Error('the QR code carries no otpauth secret');
  return secret;
}

/** Logs out and waits until it is done, so the next log-in page finds nobody signed in. */
async function logOut(page: Page) {
  await page.goto('/logout');
  await expect(page).not.toHaveURL(/\/logout$/);
}

/** Sets up an authenticator app on the page shown (the account page's card or the admin area's). */
async function enrolByScanning(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const secret = await scanQrSecret(page);
  await expect(page.getByTestId('two-factor-secret')).toHaveText(secret);
  await page.getByLabel('Authentication code').fill(await unusedTotpCode(secret));
  await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
  await expect(toast(page, 'Two-factor authentication is on')).toBeVisible();
  return secret;
}

test('a person sets up two-factor authentication from the QR code, then every log-in asks for a code', async ({
  page,
}) => {
  const account = await existingUser('two-factor');
  await openSignedIn(page, account, '/user/account');
  const card = page.getByRole('heading', { name: 'Two-factor authentication' });
  await expect(card).toBeVisible();
  await expect(page.getByText('Lost your phone or authenticator app? Contact support.')).toBeVisible();

  const secret = await enrolByScanning(page);
  await expect(page.getByRole('button', { name: 'Turn off two-factor authentication' })).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  await logOut(page);
  await page.goto('/login');
  await fillLogin(page, account);
  await expect(
    page.getByText('Enter the 6-digit code from your authenticator app to finish logging in.'),
  ).toBeVisible();
  await page.getByLabel('Authentication code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(
    page.getByText('That code is not right. Check your authenticator app and try again.'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await enterTotpCode(page, secret);
  await expect(page).toHaveURL(/\/user\/wallet$/);
  await expect(toast(page, 'Login successful')).toBeVisible();
});

test('a backup authenticator app is offered once two-factor is on, and a code from either app logs in', async ({
  page,
}) => {
  const account = await existingUser('two-factor-backup');
  await openSignedIn(page, account, '/user/account');
  // Not offered before there is a first app.
  await expect(page.getByRole('button', { name: 'Set up two-factor authentication' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add a backup authenticator app' })).toHaveCount(0);
  const first = await enrolByScanning(page);

  await page.getByRole('button', { name: 'Add a backup authenticator app' }).click();
  const backup = await scanQrSecret(page);
  expect(backup).not.toBe(first);
  await page.getByLabel('Authentication code').fill(await unusedTotpCode(backup));
  await page.getByRole('button', { name: 'Add the backup authenticator app' }).click();
  await expect(toast(page, 'Backup authenticator app added')).toBeVisible();
  await expect(page.getByText('A code from your backup app works as well.')).toBeVisible();
  // Two apps are enough: no third is offered.
  await expect(page.getByRole('button', { name: 'Add a backup authenticator app' })).toHaveCount(0);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  for (const secret of [backup, first]) {
    await logOut(page);
    await page.goto('/login');
    await fillLogin(page, account);
    await enterTotpCode(page, secret);
    await expect(page).toHaveURL(/\/user\/wallet$/);
  }
});

test('turning two-factor authentication off takes a code, and the next log-in asks for none', async ({
  page,
}) => {
  const account = await existingUser('two-factor-off');
  await openSignedIn(page, account, '/user/account');
  const secret = await enrolByScanning(page);

  await page.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
  await page.getByLabel('Authentication code').fill('123');
  await page.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
  await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toBeVisible();
  await page.getByLabel('Authentication code').fill(await unusedTotpCode(secret));
  await page.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
  await expect(toast(page, 'Two-factor authentication is off')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Set up two-factor authentication' })).toBeVisible();

  await logOut(page);
  await logIn(page, account);
});

test('an admin without a factor is sent to set one up before the admin area shows', async ({ page }) => {
  const account = await existingUser('admin-no-factor');
  await makeAdmin(account);
  await page.goto('/login');
  await fillLogin(page, account);
  await expect(page.getByRole('heading', { name: 'Set up two-factor authentication' })).toBeVisible();
  await expect(page.getByTestId('admin-user-row')).toHaveCount(0);

  await enrolByScanning(page);
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByTestId('admin-user-row').first()).toBeVisible();
});

test('a log-in left at the code step shows no page of the user area until the code, then a withdrawal goes through once', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 500);
  await skipLimitsNotices(page);
  await openSignedIn(page, buyer, '/user/account');
  const secret = await enrolByScanning(page);
  // Setting up two-factor authentication starts the withdrawal hold; an admin ends it early, as on request.
  expect((await admin.rpc('end_security_hold', { user_id: buyer.id })).error).toBeNull();

  // A log-in left at the code step: the session is at aal1, and the person opens the user area's pages.
  await logOut(page);
  await page.goto('/login');
  await fillLogin(page, buyer);
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  for (const path of ['/user/wallet', '/user/buy', '/user/account', '/user/withdraw']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Enter your authentication code' })).toBeVisible();
    await expect(
      page.getByText('Enter the 6-digit code from your authenticator app to finish logging in.'),
    ).toBeVisible();
  }
  await expect(page.getByTestId('available-balance')).toHaveCount(0);
  await expect(page.getByLabel('Amount (USD)')).toHaveCount(0);

  await page.getByLabel('Authentication code').fill(await unusedTotpCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('available-balance')).toHaveText('$500.00');
  await page.getByLabel('Amount (USD)').fill('120');
  await page.getByLabel('Withdraw method').selectOption('wallet');
  await page.getByLabel('Cryptocurrency').selectOption('BTC');
  await page.getByLabel('Wallet address').fill('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
  await page.getByRole('button', { name: 'Submit Withdraw Request' }).click();
  await expect(page.getByText('Withdraw request submitted successfully')).toBeVisible();
  await expect(page.getByTestId('withdraw-request-row')).toHaveCount(1);
  await expect(page.getByTestId('available-balance')).toHaveText('$380.00');
});

test('an admin removes the two-factor authentication of a person who lost their phone, who then logs in with the password', async ({
  page,
  browser,
}) => {
  const account = await existingUser('lost-phone');
  await openSignedIn(page, account, '/user/account');
  await enrolByScanning(page);
  await logOut(page);

  // The admin works in their own browser: the app's log-out ends every session of the person, and the
  // worker's admin session is shared by the worker's tests.
  const adminPage = await (await browser.newContext()).newPage();
  await openAsWorkerAdmin(adminPage);
  await adminPage.getByRole('searchbox', { name: 'Search by name or e-mail' }).fill(account.email);
  const row = adminPage.getByTestId('admin-user-row').filter({ hasText: account.email });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Remove two-factor authentication of/ }).click();
  const dialog = adminPage.getByRole('alertdialog');
  await expect(dialog).toContainText('The removal is recorded in the audit log.');
  await dialog.getByRole('button', { name: 'Remove two-factor authentication' }).click();
  await expect(toast(adminPage, 'Two-factor authentication removed')).toBeVisible();
  await adminPage.context().close();

  await logIn(page, account);
});
