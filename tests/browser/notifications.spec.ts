import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { localDefaults } from '../../devstack/src/config';
import { seriousAccessibilityViolationsInBothThemes } from './support/accessibility';
import { personWithBalance, submitBuyRequest } from './support/admin-people';
import { apiUrl, logIn, mailTo, openSignedIn, toast } from './support/auth-people';
import { workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';
import { openFromMenu } from './support/navigation';
import { approveBuyRequest } from '../support/keyed-calls';
import { fetchRetryingShed } from '../support/retry-shed';

test.use({ locale: 'en-US' });

test('a notification appears live when an admin approves a request, and the bell counts it until read', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Notified', 500);
  await skipLimitsNotices(page);
  await openSignedIn(page, person);

  // The deposit and the sign-ins so far are waiting: read them all first.
  const bell = page.getByRole('button', { name: /^Notifications, (\d|9\+) unread$/ });
  await expect(bell).toBeVisible();
  await bell.click();
  const centre = page.getByRole('dialog', { name: 'Notifications' });
  await expect(centre.getByTestId('notification').filter({ hasText: 'Deposit completed' })).toContainText(
    '$500 was added to your balance.',
  );
  expect(await seriousAccessibilityViolationsInBothThemes(page)).toEqual([]);
  await centre.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(centre.getByText('You are all caught up.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  const requestId = await submitBuyRequest(person, 120);
  const { error } = await approveBuyRequest(admin, requestId);
  expect(error).toBeNull();

  // No reload: Realtime brings it.
  await expect(page.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
  await expect(page.getByTestId('unread-count')).toHaveText('1');
  await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
  const newest = centre.getByTestId('notification').first();
  await expect(newest).toContainText('Buy request approved');
  await expect(newest).toContainText('Your request to buy $120 of Bitcoin was approved.');
  await expect(newest).toHaveAttribute('data-read', 'false');
});

test('notifications open as a popover from the bell, focused on the panel, not on "Mark all as read"', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Popover', 500);
  await skipLimitsNotices(page);
  await openSignedIn(page, person);

  const bell = page.getByRole('button', { name: /^Notifications, (\d|9\+) unread$/ });
  await bell.click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  await expect(panel.getByTestId('notification').first()).toBeVisible();

  // Anchored to the bell: just below it and ending where it ends, not centred on the screen.
  const bellBox = await bell.boundingBox();
  const panelBox = await panel.boundingBox();
  if (!bellBox || !panelBox) throw new Error('the bell or its panel has no box');
  expect(panelBox.y - (bellBox.y + bellBox.height)).toBeGreaterThanOrEqual(0);
  expect(panelBox.y - (bellBox.y + bellBox.height)).toBeLessThan(16);
  expect(Math.abs(panelBox.x + panelBox.width - (bellBox.x + bellBox.width))).toBeLessThan(16);

  // The page stays readable beside it (no modal overlay hides it from screen readers).
  await expect(page.getByRole('main')).toBeVisible();
  // Enter on opening reads nothing: the focus is on the panel, not on its button.
  await expect(panel).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(panel.getByRole('button', { name: 'Mark all as read' })).toBeEnabled();
  await expect(panel.getByText(/^\d+ unread$/)).toBeVisible();

  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(bell).toBeFocused();
});

test('the "this wasn\'t me" link of a security e-mail locks withdrawals at once, without signing in', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Not me', 500);
  const { error } = await person.client.auth.updateUser({
    password: 'taken-over-123',
    current_password: person.password,
  });
  expect(error).toBeNull();

  // The schedule's call: the outbox goes out through the provider, the local mailbox here.
  const sending = await fetchRetryingShed(`${apiUrl()}/functions/v1/send-security-emails`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${localDefaults.serviceRoleKey}` },
  });
  expect(sending.status).toBe(200);
  const mail = (await mailTo(person.email)).find((message) => message.subject === 'Password changed');
  const link = new URL(mail?.links[0] ?? '');

  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Was this not you?' })).toBeVisible();
  expect(await seriousAccessibilityViolationsInBothThemes(page)).toEqual([]);
  await page.getByRole('button', { name: 'Lock my withdrawals' }).click();
  await expect(page.getByRole('heading', { name: 'Withdrawals locked' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Choose a new password' })).toHaveAttribute(
    'href',
    '/reset-password',
  );

  const withdraw = () =>
    person.client.functions.invoke('withdrawals', {
      headers: { 'Idempotency-Key': randomUUID() },
      body: {
        amount: 20,
        withdrawMethod: 'wallet',
        details: { cryptoType: 'ETH', walletAddress: '0x1111222233334444555566667777888899990000' },
      },
    });
  // The link also freezes the account and ends every session: the one that changed the password is out.
  expect(await (await withdraw()).error?.context.json()).toEqual({ error: 'Sign in to continue' });
  // Signed in again with the changed password, the money stays locked.
  const again = await person.client.auth.signInWithPassword({
    email: person.email,
    password: 'taken-over-123',
  });
  expect(again.error).toBeNull();
  expect(await (await withdraw()).error?.context.json()).toEqual({
    error:
      'Withdrawals are locked because you reported a change you did not make. Contact support to unlock them.',
  });

  await page.goto('/not-me?token=not-a-token');
  await expect(page.getByRole('alert')).toHaveText('This link is invalid or has expired');
  await expect(page.getByRole('button', { name: 'Lock my withdrawals' })).toBeDisabled();

  // Buying stops too, and the buy page says why instead of asking to try again.
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await logIn(page, { ...person, password: 'taken-over-123' });
  await openFromMenu(page, 'Buy', 'Buy Cryptocurrency');
  await page.getByLabel('Cryptocurrency').selectOption('bitcoin');
  await page.getByLabel('Amount (USD)').fill('20');
  await page.getByRole('button', { name: 'Submit Buy Request' }).click();
  await expect(
    toast(
      page,
      'Buying and selling are locked because you reported a change you did not make. Contact support to unlock them.',
    ),
  ).toBeVisible();
});
