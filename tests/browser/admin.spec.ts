import { expect, test, type Page } from '@playwright/test';
import { applyStatus, confirmAdminAction } from './support/admin-actions';
import {
  personWithBalance,
  submitBuyRequest,
  submitWalletWithdrawal,
  uniqueName,
} from './support/admin-people';
import { existingUser, openSignedIn, toast, withDatabase } from './support/auth-people';
import {
  createPendingDeposit,
  openAsWorkerAdmin,
  workerAdminClient,
  workerSecondAdminClient,
} from './support/buy-people';
import { openFromMenu } from './support/navigation';
import {
  approveBuyRequest,
  rejectBuyRequest,
  requestBuy,
  setTransactionStatus,
} from '../support/keyed-calls';
import { workerAdmin } from './support/worker-admin';

test.use({ locale: 'en-US' });

const adminPages = [
  { path: '/admin/users', heading: 'Users' },
  { path: '/admin/transactions', heading: 'Transactions' },
  { path: '/admin/deposit', heading: 'Deposit' },
  { path: '/admin/status-types', heading: 'Status types' },
  { path: '/admin/buy-requests', heading: 'Buy requests' },
  { path: '/admin/withdraw-requests', heading: 'Withdraw requests' },
  { path: '/admin/settings', heading: 'Settings' },
  { path: '/admin/audit-log', heading: 'Audit log' },
];

async function logInAsAdmin(page: Page) {
  await openAsWorkerAdmin(page);
}

test('a visitor is sent to the log-in page from every admin page, a user is told it is not theirs', async ({
  browser,
}) => {
  // Separate browsers: a visitor's trip to /login remembers the admin page as where to return after logging in.
  const visitor = await (await browser.newContext()).newPage();
  for (const { path } of adminPages) {
    await visitor.goto(path);
    await expect(visitor).toHaveURL(/\/login$/);
  }
  const userPage = await (await browser.newContext()).newPage();
  await openSignedIn(userPage, await existingUser('admin-outsider'));
  for (const { path } of adminPages) {
    await userPage.goto(path);
    await expect(userPage.getByText('You do not have permission to view this page.')).toBeVisible();
    await expect(userPage).toHaveURL(path);
  }
});

test('users: search by name or e-mail shows the available balance; deleting asks first, refuses a person who holds money and closes one who holds nothing', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Searchable', 1234.5);
  const closable = await personWithBalance(admin, 'Closable', 0);
  await submitWalletWithdrawal(person, 234.5, '0x1111222233334444555566667777888899990000');
  await logInAsAdmin(page);

  const search = page.getByRole('searchbox', { name: 'Search by name or e-mail' });
  await search.fill(person.fullName);
  const rows = page.getByTestId('admin-user-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(person.fullName);
  await expect(rows.first()).toContainText(person.email);
  await expect(rows.first()).toContainText('User');
  await expect(rows.first()).toContainText('$1,000.00');

  // From the whole list (more than this person), so the one row left is the e-mail search's answer.
  await search.fill('');
  await expect(rows).not.toHaveCount(1);
  await search.fill(person.email.toUpperCase());
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(person.fullName);

  await rows
    .first()
    .getByRole('button', { name: `Delete ${person.fullName}` })
    .click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(
    'Are you sure you want to delete this user? This action cannot be undone and will delete all associated data.',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(rows).toHaveCount(1);

  // The books keep a person who still holds money: the refusal says why, and the person stays.
  await rows
    .first()
    .getByRole('button', { name: `Delete ${person.fullName}` })
    .click();
  await dialog.getByRole('button', { name: 'Delete user' }).click();
  await expect(
    toast(page, /^This person still holds .+ USD: pay it out before closing the account$/),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(rows).toHaveCount(1);

  await search.fill(closable.email);
  await expect(rows).toHaveCount(1);
  await rows
    .first()
    .getByRole('button', { name: `Delete ${closable.fullName}` })
    .click();
  await dialog.getByRole('button', { name: 'Delete user' }).click();
  await expect(toast(page, 'User and all associated data deleted')).toBeVisible();
  await expect(page.getByText('Nothing matches the search and filters.')).toBeVisible();
  const closed = await withDatabase((client) =>
    client.query<{ email: string | null; closed: boolean }>(
      'select email, closed_at is not null as closed from public.profiles where id = $1',
      [closable.id],
    ),
  );
  expect(closed.rows).toEqual([{ email: null, closed: true }]);
});

test('users: deleting your own account is refused with the reason', async ({ page }) => {
  await logInAsAdmin(page);
  await page.getByRole('searchbox', { name: 'Search by name or e-mail' }).fill(workerAdmin().email);
  const row = page.getByTestId('admin-user-row').filter({ hasText: workerAdmin().email });
  await row.getByRole('button', { name: /^Delete / }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete user' }).click();
  await expect(toast(page, 'You cannot delete your own account')).toBeVisible();
});

test('deposit: required fields, then a pending deposit that completes from the transactions list', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Depositee', 0);
  await logInAsAdmin(page);
  await openFromMenu(page, 'Deposit', 'Deposit');

  await page.getByRole('button', { name: 'Create deposit' }).click();
  await expect(page.getByText('User is required')).toBeVisible();
  await expect(page.getByText('Amount must be greater than 0')).toBeVisible();

  await page.getByLabel('Find a user').fill(person.fullName);
  await expect(page.getByLabel('User', { exact: true }).locator('option')).toHaveCount(2);
  await page
    .getByLabel('User', { exact: true })
    .selectOption({ label: `${person.fullName} (${person.email})` });
  // A valid amount clears the message, so the one that returns is the answer for less than a cent.
  await page.getByLabel('Amount (USD)').fill('5');
  await expect(page.getByText('Amount must be greater than 0')).toBeHidden();
  await page.getByLabel('Amount (USD)').fill('0.001');
  await page.getByRole('button', { name: 'Create deposit' }).click();
  await expect(page.getByText('Amount must be greater than 0')).toBeVisible();
  await expect(page.getByText('User is required')).toBeHidden();

  await page.getByLabel('Amount (USD)').fill('75.25');
  await page.getByRole('button', { name: 'Create deposit' }).click();
  const confirmation = page.getByRole('dialog', { name: 'Create deposit' });
  await expect(confirmation).toContainText(person.fullName);
  await expect(confirmation).toContainText(person.email);
  await expect(confirmation).toContainText('$75.25');
  await expect(confirmation).toContainText('Available balance$0.00');
  await confirmAdminAction(page, 'Create deposit');
  await expect(toast(page, 'Deposit created')).toBeVisible();

  await openFromMenu(page, 'Transactions', 'Transactions');
  const row = page.getByTestId('admin-transaction-row').filter({ hasText: person.fullName });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Deposit');
  await expect(row).toContainText('$75.25');
  await expect(row.locator('[data-tone]', { hasText: /^Pending$/ })).toHaveAttribute('data-tone', 'yellow');

  await applyStatus(row, 'complete');
  await expect(page.getByRole('dialog', { name: 'Set deposit to complete' })).toContainText(
    "This adds $75.25 to this person's balance at once.",
  );
  await confirmAdminAction(page, 'Change status');
  await expect(toast(page, 'Transaction status updated')).toBeVisible();
  await expect(row.locator('[data-tone]', { hasText: /^Complete$/ })).toHaveAttribute('data-tone', 'green');
  const { data: wallet } = await admin
    .from('wallet_balances')
    .select('available')
    .eq('user_id', person.id)
    .single();
  expect(wallet?.available).toBe(75.25);
});

test('transactions: a deposit this admin completed above 1,000 USD awaits a second admin, with no Complete', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Four-eyed', 0);
  const deposit = await createPendingDeposit(admin, person.id, 1_500);
  // Above the threshold this admin's completion is only a proposal.
  expect((await setTransactionStatus(admin, deposit, 'complete')).error).toBeNull();
  await logInAsAdmin(page);
  await openFromMenu(page, 'Transactions', 'Transactions');

  const row = page.getByTestId('admin-transaction-row').filter({ hasText: person.fullName });
  await expect(row.getByTestId('status-note')).toHaveText('Awaiting a second admin: you approved it');
  await expect(row.locator('[data-tone]', { hasText: /^Pending$/ })).toBeVisible();
  await expect(row.getByRole('option', { name: 'Pending' })).toHaveCount(1);
  await expect(row.getByRole('option', { name: 'Complete' })).toHaveCount(0);

  // The second admin confirms: the row is complete and says nothing more.
  expect((await setTransactionStatus(await workerSecondAdminClient(), deposit, 'complete')).error).toBeNull();
  await page.reload();
  await expect(row.locator('[data-tone]', { hasText: /^Complete$/ })).toBeVisible();
  await expect(row.getByTestId('status-note')).toHaveCount(0);
});

test('deposit: a person deleted meanwhile gets the failure message', async ({ page }) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Vanishing', 0);
  await logInAsAdmin(page);
  await openFromMenu(page, 'Deposit', 'Deposit');
  await page.getByLabel('Find a user').fill(person.fullName);
  await expect(page.getByLabel('User', { exact: true }).locator('option')).toHaveCount(2);
  await page
    .getByLabel('User', { exact: true })
    .selectOption({ label: `${person.fullName} (${person.email})` });
  await page.getByLabel('Amount (USD)').fill('10');
  const { error } = await admin.functions.invoke('admin-delete-user', { body: { userId: person.id } });
  expect(error).toBeNull();

  await page.getByRole('button', { name: 'Create deposit' }).click();
  await confirmAdminAction(page, 'Create deposit');
  await expect(toast(page, 'Failed to create deposit transaction')).toBeVisible();
});

test('transactions: a status change that would overdraw the wallet says Insufficient balance', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Overdrawn', 100);
  // 80 of the 100 are reserved by an open withdrawal, so taking the deposit back would leave -80.
  await submitWalletWithdrawal(person, 80, '0x9999888877776666555544443333222211110000');
  await logInAsAdmin(page);
  await openFromMenu(page, 'Transactions', 'Transactions');

  const row = page.getByTestId('admin-transaction-row').filter({ hasText: person.fullName });
  await expect(row.locator('[data-tone]', { hasText: /^Complete$/ })).toBeVisible();
  await applyStatus(row, 'pending');
  await expect(page.getByRole('dialog')).toContainText(
    "This takes $100.00 from this person's balance at once.",
  );
  await expect(page.getByRole('dialog')).toContainText('Available balance$20.00');
  await confirmAdminAction(page, 'Change status');
  await expect(toast(page, 'Insufficient balance')).toBeVisible();
  await expect(row.locator('[data-tone]', { hasText: /^Complete$/ })).toBeVisible();
  await expect(row.getByRole('combobox')).toHaveValue('complete');
});

test('transactions: a settled buy offers no status change and says it is final', async ({ page }) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Settled', 100);
  const requestId = await submitBuyRequest(person, 40);
  expect((await approveBuyRequest(admin, requestId)).error).toBeNull();
  await logInAsAdmin(page);
  await openFromMenu(page, 'Transactions', 'Transactions');

  const rows = page.getByTestId('admin-transaction-row').filter({ hasText: person.fullName });
  const buy = rows.filter({ hasText: '$40.00' });
  await expect(buy).toContainText('Buy');
  await expect(buy.getByRole('combobox')).toBeDisabled();
  await expect(buy.getByRole('button', { name: /^Apply: / })).toBeDisabled();
  await expect(buy.getByTestId('status-note')).toHaveText(
    'Records an approved buy request: its status is final.',
  );
  // The deposit beside it records no request: its status still changes.
  await expect(rows.filter({ hasText: '$100.00' }).getByRole('combobox')).toBeEnabled();
  // Asked anyway (another tab, an old page), the database says why.
  const { data } = await admin.from('transactions').select('id').eq('buy_request_id', requestId).single();
  const { error } = await setTransactionStatus(admin, data?.id ?? '', 'pending');
  expect(error?.message).toBe('This buy records an approved request: its status is final');
});

test('status types: required name, create, duplicate refused, offered in the dropdowns, delete', async ({
  page,
}) => {
  const name = uniqueName('on hold').toLowerCase();
  await logInAsAdmin(page);
  await openFromMenu(page, 'Status types', 'Status types');

  await page.getByRole('button', { name: 'Add status type' }).click();
  await expect(page.getByText('Status type name is required')).toBeVisible();

  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Add status type' }).click();
  await expect(toast(page, 'Status type created')).toBeVisible();
  const row = page.getByTestId('status-type-row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row.getByText(name)).toHaveAttribute('data-tone', 'purple');

  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Add status type' }).click();
  await expect(toast(page, 'A status type with this name already exists')).toBeVisible();

  await page.getByLabel('Name').fill('Pending');
  await page.getByRole('button', { name: 'Add status type' }).click();
  await expect(toast(page, 'Status "Pending" is built in')).toBeVisible();

  await openFromMenu(page, 'Transactions', 'Transactions');
  await expect(page.getByTestId('admin-transaction-row').first().getByRole('option', { name })).toHaveCount(
    1,
  );

  await openFromMenu(page, 'Status types', 'Status types');
  await row.getByRole('button', { name: `Delete status type ${name}` }).click();
  await page
    .getByRole('alertdialog', { name: `Delete status type "${name}"?` })
    .getByRole('button', { name: 'Delete status type' })
    .click();
  await expect(toast(page, 'Status type deleted')).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('buy requests: approve and reject only while pending, what the balance covers, and coloured badges', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Buyer', 500);
  // A buy reserves its USD when it is sent: one the available balance does not cover is never stored.
  const refused = await requestBuy(person.client, 'bitcoin', 600);
  expect(refused.error?.message).toBe('Insufficient balance (including all pending requests)');
  await submitBuyRequest(person, 250);
  await submitBuyRequest(person, 200);
  await submitBuyRequest(person, 50);
  await logInAsAdmin(page);
  await openFromMenu(page, 'Buy requests', 'Buy requests');

  const rows = page.getByTestId('admin-buy-request-row').filter({ hasText: person.fullName });
  await expect(rows).toHaveCount(3);
  // Newest first.
  await expect(rows.nth(0)).toContainText('$50.00');
  await expect(rows.nth(1)).toContainText('$200.00');
  await expect(rows.nth(2)).toContainText('$250.00');
  await expect(rows.nth(0)).toContainText('Bitcoin');
  await expect(rows.nth(0).getByText('pending')).toHaveAttribute('data-tone', 'yellow');

  await rows
    .nth(2)
    .getByRole('button', { name: /^Approve / })
    .click();
  await confirmAdminAction(page, 'Approve');
  await expect(toast(page, 'Buy request approved')).toBeVisible();
  await expect(rows.nth(2).getByText('approved')).toHaveAttribute('data-tone', 'green');

  await rows
    .nth(1)
    .getByRole('button', { name: /^Approve / })
    .click();
  await confirmAdminAction(page, 'Approve');
  // The first approval's toast may still be up: the row is the witness.
  await expect(rows.nth(1).getByText('approved')).toHaveAttribute('data-tone', 'green');
  await expect(rows.nth(1).getByRole('button', { name: /^(Approve|Reject) / })).toHaveCount(0);

  await rows
    .nth(0)
    .getByRole('button', { name: /^Reject / })
    .click();
  await confirmAdminAction(page, 'Reject');
  await expect(toast(page, 'Buy request rejected')).toBeVisible();
  await expect(rows.nth(0).getByText('rejected')).toHaveAttribute('data-tone', 'red');
  await expect(rows.nth(0).getByRole('button', { name: /^(Approve|Reject) / })).toHaveCount(0);

  const { data: wallet } = await admin
    .from('wallet_balances')
    .select('available')
    .eq('user_id', person.id)
    .single();
  expect(wallet?.available).toBe(50);
});

test("buy requests: another admin's decision shows live and removes the buttons", async ({ page }) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Raced', 500);
  const requestId = await submitBuyRequest(person, 100);
  await logInAsAdmin(page);
  await openFromMenu(page, 'Buy requests', 'Buy requests');
  const row = page.getByTestId('admin-buy-request-row').filter({ hasText: person.fullName });
  await expect(row.getByText('pending')).toBeVisible();

  const { error } = await rejectBuyRequest(admin, requestId);
  expect(error).toBeNull();
  await expect(row.getByText('rejected')).toBeVisible({ timeout: 2_000 });
  await expect(row.getByRole('button', { name: /^(Approve|Reject) / })).toHaveCount(0);
});

test('withdraw requests: status dropdown with status types, details decrypted, approve locks the status', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Withdrawer', 500);
  const walletAddress = `0x${Date.now().toString(16).padStart(40, 'a')}`;
  await submitWalletWithdrawal(person, 120, walletAddress);
  await logInAsAdmin(page);
  await openFromMenu(page, 'Withdraw requests', 'Withdraw requests');

  const row = page.getByTestId('admin-withdraw-request-row').filter({ hasText: person.fullName });
  await expect(row).toContainText('$120.00');
  await expect(row).toContainText('wallet');
  const status = row.getByRole('combobox');
  // The status badge (the dropdown also lists every status by name).
  const badge = row.locator('[data-tone]');
  await expect(badge).toHaveText('Pending');
  await expect(badge).toHaveAttribute('data-tone', 'yellow');
  await expect(status.locator('option')).toContainText([
    'Pending',
    'Approved',
    'Rejected',
    'Cancelled',
    'Processing',
  ]);

  await applyStatus(row, 'processing');
  await expect(toast(page, 'Withdraw request status updated')).toBeVisible();
  await expect(badge).toHaveText('Processing');
  await expect(badge).toHaveAttribute('data-tone', 'blue');
  await expect(row.getByRole('button', { name: /^Approve / })).toHaveCount(0);

  await row.getByRole('button', { name: /^Details of / }).click();
  const dialog = page.getByRole('dialog', { name: 'Withdrawal details' });
  await expect(dialog).toContainText(walletAddress);
  await expect(dialog).toContainText('ETH');
  await dialog.getByRole('button', { name: 'Close' }).click();

  await applyStatus(row, 'pending');
  await expect(badge).toHaveText('Pending');
  await row.getByRole('button', { name: /^Approve / }).click();
  await confirmAdminAction(page, 'Approve');
  await expect(badge).toHaveText('Approved');
  await expect(badge).toHaveAttribute('data-tone', 'green');
  await expect(status).toBeDisabled();
  await expect(row.getByRole('button', { name: /^(Approve|Reject) / })).toHaveCount(0);
  const { data: wallet } = await admin
    .from('wallet_balances')
    .select('balance')
    .eq('user_id', person.id)
    .single();
  expect(wallet?.balance).toBe(380);
});

test('settings: limit rules, then saving the limits', { tag: '@shared-state' }, async ({ page }) => {
  await logInAsAdmin(page);
  await openFromMenu(page, 'Settings', 'Settings');
  const minimum = page.getByLabel('Minimum amount (USD)');
  const maximum = page.getByLabel('Maximum amount (USD)');
  const secondAdminAbove = page.getByLabel('Second admin above (USD)');
  await expect(minimum).toHaveValue('10');
  await expect(maximum).toHaveValue('10000');
  await expect(secondAdminAbove).toHaveValue('1000');

  await minimum.fill('500');
  await maximum.fill('100');
  await page.getByRole('button', { name: 'Save limits' }).click();
  await expect(page.getByText('Minimum amount must be less than maximum amount')).toBeVisible();

  await minimum.fill('-5');
  await page.getByRole('button', { name: 'Save limits' }).click();
  await expect(page.getByText('Amounts cannot be negative')).toBeVisible();

  await minimum.fill('10');
  await maximum.fill('10000');
  await secondAdminAbove.fill('-1');
  await page.getByRole('button', { name: 'Save limits' }).click();
  await expect(page.getByText('Amounts cannot be negative')).toBeVisible();

  // Other specs rely on the seeded limits, so the saved values are those.
  await secondAdminAbove.fill('1000');
  await page.getByRole('button', { name: 'Save limits' }).click();
  await expect(toast(page, 'Transaction limits updated')).toBeVisible();
});

test('settings: the holding period for long-term gains', { tag: '@shared-state' }, async ({ page }) => {
  await logInAsAdmin(page);
  await openFromMenu(page, 'Settings', 'Settings');
  const form = page.getByRole('form', { name: 'Holding period' });
  const days = form.getByLabel('Long-term after (days held)');
  await expect(days).toHaveValue('365');

  await days.fill('0');
  await form.getByRole('button', { name: 'Save holding period' }).click();
  await expect(
    form.getByText('The holding period must be a whole number of days from 1 to 3660'),
  ).toBeVisible();

  await days.fill('400');
  await form.getByRole('button', { name: 'Save holding period' }).click();
  await expect(toast(page, 'Holding period updated')).toBeVisible();
  const savedDays = async () =>
    (
      await withDatabase((db) =>
        db.query<{ days: number }>('select long_term_after_days as days from public.transaction_limits'),
      )
    ).rows[0]?.days;
  expect(await savedDays()).toBe(400);

  // Other specs' gains reports rely on the default, so the saved value is that.
  await days.fill('365');
  await form.getByRole('button', { name: 'Save holding period' }).click();
  await expect.poll(savedDays).toBe(365);
});

test('audit log: shows who did what to which record, newest first', async ({ page }) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Audited', 300);
  const requestId = await submitBuyRequest(person, 40);
  const { error } = await approveBuyRequest(admin, requestId);
  expect(error).toBeNull();
  await logInAsAdmin(page);
  await openFromMenu(page, 'Audit log', 'Audit log');

  // The person's own 'buy_request.create' is logged too; the admin's approval is the row looked at.
  const row = page
    .getByTestId('audit-log-row')
    .filter({ hasText: requestId })
    .filter({ hasText: 'buy_request.approve' });
  await expect(row).toContainText('buy_request.approve');
  await expect(row).toContainText(workerAdmin().fullName);
  await expect(row).toContainText(workerAdmin().email);
  await expect(row).toContainText('buy_requests');
  await expect(page.getByRole('button', { name: /delete|edit/i })).toHaveCount(0);
});
