import { expect, test } from '@playwright/test';
import { personWithBalance } from './support/admin-people';
import { logIn } from './support/auth-people';
import { openAsWorkerAdmin, signUpFundedBuyer, workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';
import { openFromMenu } from './support/navigation';

test('closing a dialog gives the focus back to the button that opened it', async ({ page }) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Focus', 0);
  await openAsWorkerAdmin(page);
  await page.getByRole('searchbox', { name: 'Search by name or e-mail' }).fill(person.fullName);
  const opener = page.getByRole('button', { name: `Delete ${person.fullName}` });
  const dialog = page.getByRole('alertdialog');

  await opener.click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  await opener.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test('the limits notice, opening by itself while a person types, leaves the focus and the keys in their field', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 100);
  await stubMarketProvider(page);
  await skipLimitsNotices(page, 'buy');
  await logIn(page, buyer);
  await openFromMenu(page, 'Buy', 'Buy Cryptocurrency');
  const amount = page.getByLabel('Amount (USD)');
  await amount.focus();

  const notice = page.getByRole('dialog', { name: 'Important Transaction Limits' });
  await expect(notice).toBeVisible();
  await expect(amount).toBeFocused();
  await page.keyboard.type('1234567');
  await expect(amount).toHaveValue('1234567');
  await notice.getByRole('button', { name: 'I Understand' }).click();
  await expect(notice).toBeHidden();
});
