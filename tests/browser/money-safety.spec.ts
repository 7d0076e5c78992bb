import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { localDefaults } from '../../devstack/src/config';
import { createNodeClient } from '../support/node-client';
import { personWithBalance } from './support/admin-people';
import { apiUrl, mailTo } from './support/auth-people';
import { openAsWorkerAdmin, workerAdminClient } from './support/buy-people';
import { fetchRetryingShed } from '../support/retry-shed';

test.use({ locale: 'en-US' });

const lockedReason =
  'Locked: this person reported a change they did not make ("this wasn\'t me"). Nothing but deposits moves ' +
  'until an admin ends the lock on Settings.';

test("a thief's withdrawal waits; the owner's \"this wasn't me\" from the mailbox holds it, and the admin queue shows the lock with no Approve", async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const owner = await personWithBalance(admin, 'Robbed', 110);

  // The thief has the password: a sign-in of their own (the owner is told by e-mail), then a withdrawal.
  const thief = createNodeClient(apiUrl(), localDefaults.anonKey);
  expect(
    (await thief.auth.signInWithPassword({ email: owner.email, password: owner.password })).error,
  ).toBeNull();
  const stolen = await thief.functions.invoke<{ id: string }>('withdrawals', {
    headers: { 'Idempotency-Key': randomUUID() },
    body: {
      amount: 100,
      withdrawMethod: 'wallet',
      details: { cryptoType: 'ETH', walletAddress: '0x1111222233334444555566667777888899990000' },
    },
  });
  expect(stolen.error).toBeNull();

  // The schedule's call: the outbox goes out through the provider, the local mailbox here.
  const sending = await fetchRetryingShed(`${apiUrl()}/functions/v1/send-security-emails`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${localDefaults.serviceRoleKey}` },
  });
  expect(sending.status).toBe(200);
  const mail = (await mailTo(owner.email)).find((message) => message.subject === 'New sign-in');
  const link = new URL(mail?.links[0] ?? '');
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByRole('button', { name: 'Lock my withdrawals' }).click();
  await expect(page.getByRole('heading', { name: 'Withdrawals locked' })).toBeVisible();

  await openAsWorkerAdmin(page, `/admin/withdraw-requests?user=${owner.id}`);
  await expect(page.getByRole('heading', { name: 'Withdraw requests', level: 1 })).toBeVisible();
  const row = page.getByTestId('admin-withdraw-request-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('queue-row-note')).toHaveText(lockedReason);
  await expect(row.getByRole('button', { name: /^Reject / })).toBeVisible();
  await expect(row.getByRole('button', { name: /^Approve / })).toHaveCount(0);
  await expect(row.getByRole('combobox').locator('option', { hasText: 'Approved' })).toHaveCount(0);

  // And nothing left: the balance is whole, the thief's request still waits.
  const checker = await workerAdminClient();
  const { data } = await checker
    .from('withdraw_requests_with_user')
    .select('status, available, held_because')
    .eq('id', stolen.data?.id ?? '')
    .single();
  expect(data).toEqual({ status: 'pending', available: 10, held_because: lockedReason });
});
