import { randomInt } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { localDefaults } from '../../devstack/src/config';
import { moveBack } from '../support/time-travel';
import { apiUrl, mailTo, openSignedIn, toast, withDatabase } from './support/auth-people';
import { workerAdminClient, signUpFundedBuyer } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { fetchRetryingShed } from '../support/retry-shed';

test.use({ locale: 'en-US' });

/** Bank details with an account number of this test's own, so its last 4 digits name it. */
function bankAccount() {
  return {
    'Account number': String(randomInt(10 ** 11, 10 ** 12)),
    'Account name': 'Journey Person',
    'Bank name': 'First Test Bank',
    'Bank address': '1 Test Street',
    'Routing number': '021000021',
    'SWIFT code': 'FTBKUS33',
  };
}

async function saveBankAccount(page: Page, label: string) {
  const details = bankAccount();
  const form = page.getByRole('form', { name: 'Add a destination' });
  await form.getByLabel('Label').fill(label);
  await form.getByLabel('Withdraw method').selectOption('bank');
  for (const [field, value] of Object.entries(details))
    await form.getByLabel(field, { exact: true }).fill(value);
  await form.getByRole('button', { name: 'Save destination' }).click();
  await expect(page.getByTestId('saved-destination').filter({ hasText: label })).toHaveCount(1);
  return details['Account number'].slice(-4);
}

async function sendSecurityEmails() {
  const sending = await fetchRetryingShed(`${apiUrl()}/functions/v1/send-security-emails`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${localDefaults.serviceRoleKey}` },
  });
  expect(sending.status).toBe(200);
}

async function withdrawTo(page: Page, destination: string) {
  await page.goto('/user/withdraw');
  await expect(page.getByRole('heading', { name: 'Withdraw Funds', level: 1 })).toBeVisible();
  await page.getByLabel('Amount (USD)').fill('50');
  await page.getByLabel('Pay to').selectOption({ label: destination });
  await page.getByRole('button', { name: 'Submit Withdraw Request' }).click();
}

/*
 * Time passes here as in the stack tests (tests/support/time-travel.ts): the test moves the stored moments
 * back as the database owner; the app and the database have no shortcut.
 */
test('an address book and a freeze: save, wait, cancel from the mailbox, withdraw, freeze, unfreeze after the delay', async ({
  page,
}) => {
  // A long journey: two saved destinations, the mailbox, three withdrawals, a freeze and an unfreeze.
  test.setTimeout(120_000);
  const admin = await workerAdminClient();
  const person = await signUpFundedBuyer(admin, 500);
  await skipLimitsNotices(page);
  await openSignedIn(page, person);

  await page.goto('/user/account');
  await expect(page.getByRole('heading', { name: 'Payout address book' })).toBeVisible();
  const salaryEnding = await saveBankAccount(page, 'Salary account');
  await saveBankAccount(page, 'Not mine');
  const saved = page.getByTestId('saved-destination');
  await expect(saved).toHaveCount(2);
  await expect(saved.filter({ hasText: 'Salary account' })).toContainText(
    `Bank transfer ending in ${salaryEnding}`,
  );
  await expect(saved.filter({ hasText: 'Salary account' })).toContainText('Waiting: usable from');

  // The e-mail of the one the person did not add carries its one-click cancel link.
  await sendSecurityEmails();
  const token = await withDatabase(async (client) => {
    const { rows } = await client.query<{ cancel_token: string }>(
      `select cancel_token from public.payout_destinations where user_id = $1 and label = 'Not mine'`,
      [person.id],
    );
    return rows[0]?.cancel_token ?? '';
  });
  const link = (await mailTo(person.email))
    .filter((mail) => mail.subject === 'New payout destination saved')
    .flatMap((mail) => mail.links)
    .find((href) => href.includes(token));
  const cancelUrl = new URL(link ?? '');
  await page.goto(`${cancelUrl.pathname}${cancelUrl.search}`);
  await page.getByRole('button', { name: 'Cancel this destination' }).click();
  await expect(page.getByRole('heading', { name: 'Destination cancelled' })).toBeVisible();
  await expect(page.getByText('"Not mine" was removed from your address book')).toBeVisible();

  // 48 hours later, the salary account is usable.
  await withDatabase((client) =>
    moveBack(
      client,
      `update public.payout_destinations set usable_at = now() - interval '1 second'
       where user_id = $1 and label = 'Salary account'`,
      [person.id],
    ),
  );
  const salary = `Salary account · Bank transfer ending in ${salaryEnding}`;
  await withdrawTo(page, salary);
  await expect(toast(page, 'Withdraw request submitted successfully')).toBeVisible();
  await expect(page.getByTestId('withdraw-request-row')).toHaveCount(1);

  await page.goto('/user/account');
  await page.getByRole('button', { name: 'Freeze my account' }).click();
  await expect(toast(page, 'Account frozen. Your other devices were signed out.')).toBeVisible();
  await withdrawTo(page, salary);
  await expect(
    toast(
      page,
      'Your account is frozen: no money leaves and nothing is bought or sold until you unfreeze it.',
    ),
  ).toBeVisible();

  // Nor does the password change: the person is told why, not Auth's generic failure.
  await page.goto('/user/account');
  await page.getByLabel('Current password', { exact: true }).fill(person.password);
  await page.getByLabel('New password', { exact: true }).fill('thief-pass-999');
  await page.getByLabel('Confirm new password').fill('thief-pass-999');
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(
    toast(
      page,
      'Your account is frozen, so its password cannot change. Unfreeze it on the Account page first.',
    ),
  ).toBeVisible();

  await page
    .getByRole('form', { name: 'Unfreeze' })
    .getByLabel('Password', { exact: true })
    .fill(person.password);
  await page.getByRole('button', { name: 'Unfreeze after 24 hours' }).click();
  await expect(toast(page, 'Your account unfreezes in 24 hours. We e-mailed you.')).toBeVisible();
  await expect(page.getByTestId('freeze-state')).toContainText('Unfreezing: your account stays frozen until');

  // The delay passes.
  await withDatabase((client) =>
    moveBack(client, 'update public.account_freezes set unfreeze_at = now() where user_id = $1', [person.id]),
  );
  await withdrawTo(page, salary);
  await expect(page.getByTestId('withdraw-request-row')).toHaveCount(2);
});
