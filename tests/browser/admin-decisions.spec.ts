import { expect, test, type Page } from '@playwright/test';
import { seriousAccessibilityViolations } from './support/accessibility';
import { applyStatus, confirmAdminAction } from './support/admin-actions';
import { personWithBalance, submitBuyRequest, submitWalletWithdrawal } from './support/admin-people';
import { toast } from './support/auth-people';
import { openAsWorkerAdmin, workerAdminClient } from './support/buy-people';
import { approveBuyRequest, rejectBuyRequest } from '../support/keyed-calls';

test.use({ locale: 'en-US' });

const walletAddress = '0x1111222233334444555566667777888899990000';

/** The admin's list narrowed to one person through its address, as a shared link would open it. */
async function openListOf(page: Page, list: string, personId: string, heading: string) {
  await openAsWorkerAdmin(page, `/admin/${list}?user=${personId}`);
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

test('arrow keys on a withdrawal’s status only choose; Apply asks before a final status and Cancel changes nothing', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Keyboard', 500);
  const requestId = await submitWalletWithdrawal(person, 120, walletAddress);
  await openListOf(page, 'withdraw-requests', person.id, 'Withdraw requests');
  const row = page.getByTestId('admin-withdraw-request-row');
  await expect(row).toHaveCount(1);
  const badge = row.locator('[data-tone]');
  const status = row.getByRole('combobox');

  await status.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(status).toHaveValue('rejected');
  const storedStatus = async () =>
    (await admin.from('withdraw_requests').select('status').eq('id', requestId).single()).data?.status;
  // Nothing is sent on a choice: the stored status and the badge stay pending.
  await expect(row.getByRole('button', { name: /^Apply: / })).toBeEnabled();
  expect(await storedStatus()).toBe('pending');
  await expect(badge).toHaveText('Pending');

  await row.getByRole('button', { name: /^Apply: / }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject withdrawal' });
  await expect(dialog).toContainText(person.fullName);
  await expect(dialog).toContainText(person.email);
  await expect(dialog).toContainText('$120.00');
  // 500 less the 120 this request reserves.
  await expect(dialog).toContainText('Available balance$380.00');
  await expect(dialog).toContainText('This is final.');
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await storedStatus()).toBe('pending');
  await expect(badge).toHaveText('Pending');

  await applyStatus(row, 'rejected');
  await confirmAdminAction(page, 'Reject');
  await expect(toast(page, 'Withdraw request status updated')).toBeVisible();
  await expect(badge).toHaveText('Rejected');
  expect(await storedStatus()).toBe('rejected');
});

test('a status that is not final applies without a question; the table shows the available balance', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Processing', 300);
  await submitWalletWithdrawal(person, 100, walletAddress);
  await openListOf(page, 'withdraw-requests', person.id, 'Withdraw requests');
  const row = page.getByTestId('admin-withdraw-request-row');
  await expect(row).toContainText('$200.00');

  await applyStatus(row, 'processing');
  await expect(toast(page, 'Withdraw request status updated')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(row.locator('[data-tone]')).toHaveText('Processing');
});

test('approving a buy request asks first, naming the person, the amount and their available balance', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Confirmed', 400);
  const requestId = await submitBuyRequest(person, 150);
  await openListOf(page, 'buy-requests', person.id, 'Buy requests');
  const row = page.getByTestId('admin-buy-request-row');
  await expect(row).toContainText('$400.00');

  await row.getByRole('button', { name: /^Approve / }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve buy request' });
  await expect(dialog).toContainText(person.fullName);
  await expect(dialog).toContainText('$150.00');
  await expect(dialog).toContainText('Available balance$400.00');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const { data: untouched } = await admin.from('buy_requests').select('status').eq('id', requestId).single();
  expect(untouched?.status).toBe('pending');

  await row.getByRole('button', { name: /^Approve / }).click();
  await confirmAdminAction(page, 'Approve');
  await expect(toast(page, 'Buy request approved')).toBeVisible();
  await expect(row).toContainText('$250.00');
});

const overtakenDecisions = [
  {
    decision: 'Reject',
    otherAdmin: approveBuyRequest,
    failure: 'Failed to update request status. Please try again.',
    shown: 'Approved',
  },
  {
    decision: 'Approve',
    otherAdmin: rejectBuyRequest,
    failure: 'Failed to process buy request. Please try again.',
    shown: 'Rejected',
  },
] as const;

for (const { decision, otherAdmin, failure, shown } of overtakenDecisions) {
  test(`${decision} on a buy request another admin has just decided says: ${failure}`, async ({ page }) => {
    const admin = await workerAdminClient();
    const person = await personWithBalance(admin, 'Overtaken', 400);
    const requestId = await submitBuyRequest(person, 50);
    await openListOf(page, 'buy-requests', person.id, 'Buy requests');
    const row = page.getByTestId('admin-buy-request-row');

    await row.getByRole('button', { name: new RegExp(`^${decision} `) }).click();
    await expect(page.getByRole('dialog', { name: `${decision} buy request` })).toBeVisible();
    const { error } = await otherAdmin(admin, requestId);
    expect(error).toBeNull();
    await confirmAdminAction(page, decision);
    await expect(toast(page, failure)).toBeVisible();
    await expect(row.locator('[data-tone]')).toHaveText(shown);
  });
}
