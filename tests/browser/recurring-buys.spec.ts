import { expect, test } from '@playwright/test';
import { localDefaults } from '../../devstack/src/config';
import { moveBack } from '../support/time-travel';
import { seriousAccessibilityViolations } from './support/accessibility';
import { apiUrl, openSignedIn, withDatabase } from './support/auth-people';
import { openAsWorkerAdmin, signUpFundedBuyer, workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { fetchRetryingShed } from '../support/retry-shed';

test.use({ locale: 'en-US', timezoneId: 'Europe/Berlin' });

/** The schedule's call (Supabase Cron; the local stack's `schedules`), made now. */
async function runScheduler() {
  const response = await fetchRetryingShed(`${apiUrl()}/functions/v1/run-recurring-buys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${localDefaults.serviceRoleKey}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(response.status).toBe(200);
}

test('a person schedules a weekly buy, sees its run place a request, pauses and deletes it', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 500);
  await skipLimitsNotices(page);
  await openSignedIn(page, buyer);
  await page.getByRole('link', { name: 'Recurring buys' }).click();
  await expect(page.getByText('No recurring buys yet.')).toBeVisible();

  const form = page.getByRole('form', { name: 'New recurring buy' });
  await form.getByLabel('Coin').selectOption('bitcoin');
  await form.getByLabel('Amount (USD) each time').fill('25');
  await form.getByLabel('Day of the week').selectOption('Monday');
  await form.getByLabel('Time (Europe/Berlin)').fill('08:30');
  await form.getByRole('button', { name: 'Schedule recurring buy' }).click();
  const schedule = page.getByRole('region', { name: 'bitcoin recurring buy' });
  await expect(schedule).toContainText('$25.00 of bitcoin');
  await expect(schedule).toContainText('Every Monday at 08:30 (Europe/Berlin)');
  await expect(schedule).toContainText('Next run:');
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  // A week passes: the occurrence the schedule waits for is now due, and the scheduler calls.
  await withDatabase((db) =>
    moveBack(
      db,
      "update public.recurring_buys set next_run_at = next_run_at - interval '7 days' where user_id = $1",
      [buyer.id],
    ),
  );
  await runScheduler();
  await page.reload();
  await expect(schedule.getByRole('cell', { name: 'Buy request placed' })).toBeVisible();

  await schedule.getByRole('button', { name: 'Pause' }).click();
  await expect(schedule).toContainText('Paused');
  await schedule.getByRole('button', { name: 'Resume' }).click();
  await expect(schedule).toContainText('Next run:');
  await schedule.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No recurring buys yet.')).toBeVisible();
});

test('a person creates, pauses and edits a recurring buy and sees its runs; the admin sees it marked', async ({
  page,
  browser,
}) => {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 500);
  await skipLimitsNotices(page);
  await openSignedIn(page, buyer);
  await page.getByRole('link', { name: 'Recurring buys' }).click();

  const form = page.getByRole('form', { name: 'New recurring buy' });
  await form.getByLabel('Coin').selectOption('bitcoin');
  await form.getByLabel('Amount (USD) each time').fill('25');
  await form.getByLabel('Day of the week').selectOption('Monday');
  await form.getByLabel('Time (Europe/Berlin)').fill('08:30');
  await form.getByRole('button', { name: 'Schedule recurring buy' }).click();
  const schedule = page.getByRole('region', { name: 'bitcoin recurring buy' });
  await expect(schedule).toContainText('Every Monday at 08:30 (Europe/Berlin)');

  // A week passes and the scheduler runs the occurrence.
  await withDatabase((db) =>
    moveBack(
      db,
      "update public.recurring_buys set next_run_at = next_run_at - interval '7 days' where user_id = $1",
      [buyer.id],
    ),
  );
  await runScheduler();
  await page.reload();
  await expect(schedule.getByRole('cell', { name: 'Buy request placed' })).toBeVisible();

  await schedule.getByRole('button', { name: 'Pause' }).click();
  await expect(schedule).toContainText('Paused');

  await schedule.getByRole('button', { name: 'Edit' }).click();
  const edit = schedule.getByRole('form', { name: 'Change the bitcoin recurring buy' });
  await expect(edit.getByLabel('Amount (USD) each time')).toHaveValue('25');
  await expect(edit.getByLabel('Time (Europe/Berlin)')).toHaveValue('08:30');
  await edit.getByLabel('Amount (USD) each time').fill('40');
  await edit.getByLabel('How often').selectOption('Twice a month (the 1st and the 15th)');
  await edit.getByLabel('Price tolerance').selectOption('Up to 5 % above the price at the time');
  await edit.getByLabel('Skip when the price is above (USD, optional)').fill('1000000');
  await edit.getByLabel('Each buy waits for approval').selectOption('Up to 3 days');
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toHaveCount(0);

  await expect(schedule).toContainText('$40.00 of bitcoin');
  await expect(schedule).toContainText('On the 1st and the 15th at 08:30 (Europe/Berlin)');
  await expect(schedule).toContainText('limit 5 % over the price');
  await expect(schedule).toContainText('skipped above $1,000,000.00');
  await expect(schedule).toContainText('each buy waits up to 72 h');
  // Still paused, and the run before the change is still there.
  await expect(schedule).toContainText('Paused');
  await expect(schedule.getByRole('cell', { name: 'Buy request placed' })).toHaveCount(1);
  await schedule.getByRole('button', { name: 'Resume' }).click();
  await expect(schedule).toContainText('Next run:');

  // The admin's buy queue (another browser) marks the run's request.
  const adminPage = await browser.newPage();
  try {
    await openAsWorkerAdmin(adminPage, `/admin/buy-requests?user=${buyer.id}`);
    const row = adminPage.getByTestId('admin-buy-request-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('$25.00');
    await expect(row).toContainText('Recurring');
  } finally {
    await adminPage.close();
  }
});
