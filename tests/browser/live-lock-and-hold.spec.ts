import { expect, test, type Page } from '@playwright/test';
import { localDefaults } from '../../devstack/src/config';
import { createNodeClient } from '../support/node-client';
import { approveBuyRequest } from '../support/keyed-calls';
import { personWithBalance, submitBuyRequest, type AdminTestPerson } from './support/admin-people';
import { apiUrl, logIn, mailTo, openSignedIn, toast } from './support/auth-people';
import { openAsWorkerSecondAdmin, workerAdminClient } from './support/buy-people';
import { fetchRetryingShed } from '../support/retry-shed';

test.use({ locale: 'en-US' });

/** The spec's budget for a change to reach a page that is open. */
const LIVE_BUDGET_MS = 2_000;

const lockedReason =
  'Locked: this person reported a change they did not make ("this wasn\'t me"). Nothing but deposits moves ' +
  'until an admin ends the lock on Settings.';

/** Counts the page's loads from now on: a change shown without one was shown live. */
function countLoads(page: Page): () => number {
  let loads = 0;
  page.on('load', () => (loads += 1));
  return () => loads;
}

/**
 * The person presses "this wasn't me" in the e-mail about a new sign-in (another device signs in with their
 * password; the schedule's call sends the mail), signed out, as from their mailbox.
 */
async function reportNotMe(person: AdminTestPerson) {
  const elsewhere = createNodeClient(apiUrl(), localDefaults.anonKey);
  expect(
    (await elsewhere.auth.signInWithPassword({ email: person.email, password: person.password })).error,
  ).toBeNull();
  const sending = await fetchRetryingShed(`${apiUrl()}/functions/v1/send-security-emails`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${localDefaults.serviceRoleKey}` },
  });
  expect(sending.status).toBe(200);
  const mail = (await mailTo(person.email)).find((message) => message.subject === 'New sign-in');
  const token = new URL(mail?.links[0] ?? '').searchParams.get('token') ?? '';
  const signedOut = createNodeClient(apiUrl(), localDefaults.anonKey);
  expect((await signedOut.rpc('report_not_me', { token })).error).toBeNull();
}

test('the second admin’s open queue shows another admin’s approval awaiting them, then the person’s lock, without a reload', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Four Eyes Live', 2_000);
  const requestId = await submitBuyRequest(person, 1_500);

  await openAsWorkerSecondAdmin(page, `/admin/buy-requests?user=${person.id}`);
  const row = page.getByTestId('admin-buy-request-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('button', { name: /^Approve / })).toBeVisible();
  await expect(row.getByTestId('queue-row-note')).toHaveCount(0);
  const loads = countLoads(page);

  // The first admin approves: above 1,000 USD that is a proposal, which this admin may confirm.
  expect((await approveBuyRequest(admin, requestId)).error).toBeNull();
  await expect(row.getByTestId('queue-row-note')).toHaveText(
    'Awaiting a second admin: another admin approved it',
    { timeout: LIVE_BUDGET_MS },
  );
  await expect(row.getByRole('button', { name: /^Approve / })).toBeVisible();

  // The person reports a sign-in that was not theirs: the row shows the lock and offers Reject alone.
  await reportNotMe(person);
  await expect(row.getByTestId('queue-row-note')).toHaveText(lockedReason, { timeout: LIVE_BUDGET_MS });
  await expect(row.getByRole('button', { name: /^Approve / })).toHaveCount(0);
  await expect(row.getByRole('button', { name: /^Reject / })).toBeVisible();
  expect(loads()).toBe(0);
});

test('the person’s hold banner shows and goes as the hold is made and ended, without a reload; a lock shows at the next sign-in', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Banner Live', 100);
  await openSignedIn(page, person, '/user/account');
  await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  const lockBanner = page.getByTestId('lock-banner');
  const holdBanner = page.getByTestId('hold-banner');
  await expect(holdBanner).toHaveCount(0);
  const loads = countLoads(page);

  // The person changes their password here: the security hold's banner comes, with its end and reason.
  const newPassword = 'banner-live-pass-456';
  await page.getByLabel('Current password').fill(person.password);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(toast(page, 'Password updated successfully')).toBeVisible();
  await expect(holdBanner).toBeVisible({ timeout: LIVE_BUDGET_MS });
  await expect(holdBanner).toContainText('Withdrawals are on hold');
  await expect(holdBanner).toContainText(/until .+ because your password was changed/);
  await expect(lockBanner).toHaveCount(0);

  // Support ends the hold early: the banner goes.
  expect((await admin.rpc('end_security_hold', { user_id: person.id })).error).toBeNull();
  await expect(holdBanner).toHaveCount(0, { timeout: LIVE_BUDGET_MS });
  expect(loads()).toBe(0);

  // "This wasn't me" signs every session out (the link freezes the account too); the next sign-in shows the lock.
  await reportNotMe({ ...person, password: newPassword });
  await logIn(page, { email: person.email, password: newPassword });
  await expect(lockBanner).toBeVisible();
  await expect(lockBanner).toContainText('Only deposits go through for now');
  await expect(lockBanner).toContainText(
    'Withdrawals are locked because you reported a change you did not make. Contact support to unlock them.',
  );
});
