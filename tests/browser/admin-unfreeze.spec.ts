import { expect, test } from '@playwright/test';
import { seriousAccessibilityViolationsInBothThemes } from './support/accessibility';
import { personWithBalance } from './support/admin-people';
import { toast } from './support/auth-people';
import { openAsWorkerAdmin, workerAdminClient, workerSecondAdminClient } from './support/buy-people';
import { openFromMenu } from './support/navigation';

test('frozen accounts: a freeze shows live, this admin asks to unfreeze and gets no second button, and another admin’s confirmation takes the row away live', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  await openAsWorkerAdmin(page);
  await openFromMenu(page, 'Frozen accounts', 'Frozen accounts');

  const person = await personWithBalance(admin, 'Frozen', 0);
  const row = page.getByTestId('frozen-account-row').filter({ hasText: person.fullName });
  expect((await person.client.rpc('freeze_my_account')).error).toBeNull();
  await expect(row).toContainText('By the person');
  await expect(row).toContainText('—');
  expect(await seriousAccessibilityViolationsInBothThemes(page)).toEqual([]);

  await row.getByRole('button', { name: `Unfreeze ${person.fullName}` }).click();
  await expect(toast(page, 'Unfreeze asked: it waits for a second admin')).toBeVisible();
  await expect(row).toContainText('You asked to unfreeze: awaiting a second admin');
  // The four-eyes rule: the admin who asked is offered nothing more; the database would refuse them anyway.
  await expect(row.getByRole('button')).toHaveCount(0);
  const again = await admin.rpc('unfreeze_by_admins', { user_id: person.id });
  expect(again.error?.message).toBe('You approved this already: it is awaiting a second admin');

  const second = await workerSecondAdminClient();
  const confirmed = await second.rpc('unfreeze_by_admins', { user_id: person.id });
  expect(confirmed).toMatchObject({ data: true, error: null });
  await expect(row).toHaveCount(0);
});

test('frozen accounts: the second admin confirms another admin’s request from the screen', async ({
  page,
}) => {
  const second = await workerSecondAdminClient();
  const person = await personWithBalance(await workerAdminClient(), 'Unfrozen', 0);
  expect((await person.client.rpc('freeze_my_account')).error).toBeNull();
  expect((await second.rpc('unfreeze_by_admins', { user_id: person.id })).data).toBe(false);

  await openAsWorkerAdmin(page);
  await openFromMenu(page, 'Frozen accounts', 'Frozen accounts');
  const row = page.getByTestId('frozen-account-row').filter({ hasText: person.fullName });
  await expect(row).toContainText('asked to unfreeze: awaiting a second admin');
  await row.getByRole('button', { name: `Confirm unfreezing ${person.fullName}` }).click();
  await expect(toast(page, 'Account unfrozen')).toBeVisible();
  await expect(row).toHaveCount(0);
  const { data } = await person.client.rpc('my_restrictions');
  expect(data?.every((restriction) => restriction.refusal === null)).toBe(true);
});
