import { expect, test } from '@playwright/test';
import { seriousAccessibilityViolations } from './support/accessibility';
import { openSignedIn } from './support/auth-people';
import { openAsWorkerAdmin, signUpFundedBuyer, workerAdminClient } from './support/buy-people';
import { skipLimitsNotices, untilALaterNoticeShows } from './support/limits-notices';
import { openFromMenu } from './support/navigation';
import { setWithdrawRequestStatus } from '../support/keyed-calls';

test.use({ locale: 'en-US' });

const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0');

test('a user withdraws by card: the request shows pending, the balance drops, and an approval shows live', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await signUpFundedBuyer(admin, 1000);
  await skipLimitsNotices(page);
  await openSignedIn(page, person);
  await openFromMenu(page, 'Withdraw', 'Withdraw Funds');

  const balance = page.getByTestId('available-balance');
  await expect(balance).toHaveText('$1,000.00');
  await expect(page.getByText('No recent withdraw requests.')).toBeVisible();

  await page.getByLabel('Amount (USD)').fill('250');
  await page.getByLabel('Withdraw method').selectOption('card');
  await page.getByLabel('Card number').fill('4111 1111 1111 1111');
  await page.getByLabel('Expiration date (MM/YY)').fill(`12/${nextYear}`);
  await page.getByLabel('CVV').fill('123');
  await page.getByLabel('PIN').fill('2468');
  await expect(page.getByText('The CVV and PIN only verify your card: they are never stored')).toBeVisible();
  // The sign-in toast belongs to the log-in page; the check is about this page's own content.
  await expect(page.getByText('Login successful')).toBeHidden({ timeout: 10_000 });
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Submit Withdraw Request' }).click();
  await expect(page.getByText('Withdraw request submitted successfully')).toBeVisible();

  const rows = page.getByTestId('withdraw-request-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('$250.00');
  await expect(rows.first()).toContainText('Card');
  await expect(rows.first().getByText('pending')).toHaveAttribute('data-tone', 'yellow');
  await expect(balance).toHaveText('$750.00');
  await expect(page.getByLabel('Card number')).toBeHidden();

  const { data: request, error: readError } = await admin
    .from('withdraw_requests')
    .select('id')
    .eq('user_id', person.id)
    .single();
  expect(readError).toBeNull();
  const { error } = await setWithdrawRequestStatus(admin, request?.id ?? '', 'approved');
  expect(error).toBeNull();
  await expect(rows.first().getByText('approved')).toHaveAttribute('data-tone', 'green');
  await expect(balance).toHaveText('$750.00');
});

test('the form refuses more than the available balance, and the limits notice shows once per session', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await signUpFundedBuyer(admin, 100);
  // The wallet page (where log-in lands) has its own notice; this test is about the withdraw page's.
  await skipLimitsNotices(page, 'withdraw');
  await openSignedIn(page, person);
  await openFromMenu(page, 'Withdraw', 'Withdraw Funds');

  const notice = page.getByRole('dialog', { name: 'Important Transaction Limits' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('$10.00');
  await expect(notice).toContainText('$10,000.00');
  await notice.getByRole('button', { name: 'I Understand' }).click();
  await expect(notice).toBeHidden();

  await page.getByLabel('Amount (USD)').fill('100.01');
  await page.getByLabel('Withdraw method').selectOption('wallet');
  await page.getByLabel('Cryptocurrency').selectOption('ETH');
  await page.getByLabel('Wallet address').fill('0x1111222233334444555566667777888899990000');
  await page.getByRole('button', { name: 'Submit Withdraw Request' }).click();
  await expect(page.getByText('Maximum amount is $100')).toBeVisible();
  await expect(page.getByText('No recent withdraw requests.')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Withdraw Funds' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit Withdraw Request' })).toBeVisible();
  // A notice opened later on another page shows; this one stays away for the rest of the session.
  await untilALaterNoticeShows(page, 'buy');
  await expect(notice).toBeHidden();
});

test('payout details are validated: no payout to a typo or a burn address, and the admin sees what was not checked', async ({
  page,
  browser,
}) => {
  const admin = await workerAdminClient();
  const person = await signUpFundedBuyer(admin, 1000);
  await skipLimitsNotices(page);
  await openSignedIn(page, person);
  await openFromMenu(page, 'Withdraw', 'Withdraw Funds');
  const submit = page.getByRole('button', { name: 'Submit Withdraw Request' });

  await page.getByLabel('Amount (USD)').fill('50');
  await page.getByLabel('Withdraw method').selectOption('bank');
  await page.getByLabel('Account number').fill('hello world!!');
  await page.getByLabel('Account name').fill(person.fullName);
  await page.getByLabel('Bank name').fill('First Bank');
  await page.getByLabel('Bank address').fill('1 Main Street');
  await page.getByLabel('Routing number').fill('ABCDEFG');
  await page.getByLabel('SWIFT code').fill('XX');
  await submit.click();
  await expect(page.getByText('Account number must be an IBAN or 6 to 17 digits')).toBeVisible();
  await expect(page.getByText('Routing number must be 9 digits')).toBeVisible();
  await expect(page.getByText('SWIFT code must be 8 or 11 characters')).toBeVisible();
  await page.getByLabel('Account number').fill('1');
  await expect(page.getByText('Account number must be an IBAN or 6 to 17 digits')).toBeVisible();

  await page.getByLabel('Withdraw method').selectOption('wallet');
  await page.getByLabel('Cryptocurrency').selectOption('BTC');
  await page.getByLabel('Wallet address').fill(`0x${'0'.repeat(40)}`);
  await submit.click();
  await expect(page.getByText('Wallet address is not an address on the Bitcoin network')).toBeVisible();
  await page.getByLabel('Cryptocurrency').selectOption('ETH');
  await expect(page.getByText('Wallet address is a burn address: anything sent there is lost')).toBeVisible();
  await expect(page.getByText('No recent withdraw requests.')).toBeVisible();

  // All lower case: a valid address whose EIP-55 checksum the person left out.
  await page.getByLabel('Wallet address').fill('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed');
  await submit.click();
  await expect(page.getByText('Withdraw request submitted successfully')).toBeVisible();

  const adminPage = await (await browser.newContext()).newPage();
  await openAsWorkerAdmin(adminPage, '/admin/withdraw-requests');
  const row = adminPage.getByTestId('admin-withdraw-request-row').filter({ hasText: person.fullName });
  await row.getByRole('button', { name: /^Details of / }).click();
  const dialog = adminPage.getByRole('dialog', { name: 'Withdrawal details' });
  await expect(dialog.getByRole('note', { name: 'Check before paying' })).toContainText(
    'Wallet address is all one case, so it carries no checksum: confirm it with the person',
  );
});
