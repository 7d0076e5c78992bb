import { expect, test, type Page } from '@playwright/test';
import { openSignedIn, toast } from './support/auth-people';
import { openAsWorkerAdmin, signUpFundedBuyer, workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { openFromMenu } from './support/navigation';

test.use({ locale: 'en-US' });

async function submitWalletWithdrawal(page: Page) {
  await page.getByLabel('Amount (USD)').fill('50');
  await page.getByLabel('Withdraw method').selectOption('wallet');
  await page.getByLabel('Cryptocurrency').selectOption('ETH');
  await page.getByLabel('Wallet address').fill('0x1111222233334444555566667777888899990000');
  await page.getByRole('button', { name: 'Submit Withdraw Request' }).click();
}

test('after a password change withdrawals wait, the form says until when and why, and only an admin ends the hold', async ({
  page,
  browser,
}) => {
  const admin = await workerAdminClient();
  const person = await signUpFundedBuyer(admin, 500);
  await skipLimitsNotices(page);
  await openSignedIn(page, person);

  await page.goto('/user/account');
  const newPassword = 'hold-pass-456';
  await page.getByLabel('Current password').fill(person.password);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(toast(page, 'Password updated successfully')).toBeVisible();

  await openFromMenu(page, 'Withdraw', 'Withdraw Funds');
  await submitWalletWithdrawal(page);
  await expect(
    toast(
      page,
      /^Withdrawals are on hold until \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC because your password was changed\. To end the hold sooner, contact support\.$/,
    ),
  ).toBeVisible();
  await expect(page.getByText('No recent withdraw requests.')).toBeVisible();

  // Support has made sure it was the person: an admin ends the hold from the settings page.
  const adminPage = await browser.newPage();
  await openAsWorkerAdmin(adminPage, '/admin/settings');
  const hours = adminPage.getByLabel('Hold after a security change (hours)');
  await expect(hours).toHaveValue('24');
  await hours.fill('721');
  await adminPage.getByRole('button', { name: 'Save hold', exact: true }).click();
  await expect(adminPage.getByText('Security hold must be between 0 and 720 hours')).toBeVisible();
  await adminPage.getByLabel("End a person's hold early (their e-mail)").fill(person.email);
  await adminPage.getByRole('button', { name: 'End hold' }).click();
  await expect(toast(adminPage, 'Hold ended: this person can withdraw again')).toBeVisible();
  await adminPage.getByRole('button', { name: 'End hold' }).click();
  await expect(adminPage.getByText('Email is required')).toBeVisible();
  await adminPage.close();

  await page.getByRole('button', { name: 'Submit Withdraw Request' }).click();
  await expect(toast(page, 'Withdraw request submitted successfully')).toBeVisible();
  await expect(page.getByTestId('withdraw-request-row')).toHaveCount(1);
});
