import { expect, test } from '@playwright/test';
import { localDefaults } from '../../devstack/src/config';
import { moveBack } from '../support/time-travel';
import { seriousAccessibilityViolations } from './support/accessibility';
import { apiUrl, logIn, withDatabase } from './support/auth-people';
import { workerAdminClient, signUpFundedBuyer } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';

test.use({ locale: 'en-US', timezoneId: 'Europe/Berlin' });

/** The schedule's call (Supabase Cron; the local stack's `schedules`), made now. */
async function runScheduler() {
  const response = await fetch(`${apiUrl()}/functions/v1/run-recurring-buys`, {
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
  await logIn(page, buyer);
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
