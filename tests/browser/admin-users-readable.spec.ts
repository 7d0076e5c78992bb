import { expect, test, type Page } from '@playwright/test';
import { personWithBalance } from './support/admin-people';
import { existingUserWithTotp, withDatabase } from './support/auth-people';
import { openAsWorkerAdmin, workerAdminClient } from './support/buy-people';

test.use({ locale: 'en-US' });

/** How far the page itself, and any table box in it, scrolls sideways (0: everything fits). */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() =>
    Math.max(
      document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ...Array.from(document.querySelectorAll('table'), (table) => {
        const box = table.parentElement ?? table;
        return box.scrollWidth - box.clientWidth;
      }),
    ),
  );

test('the admin Users list shows who has two-factor authentication, a hold, a lock or a freeze', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const restricted = await personWithBalance(admin, 'Locked And Frozen', 0);
  await withDatabase((client) =>
    client.query('insert into private.withdrawal_locks (user_id) values ($1)', [restricted.id]),
  );
  const frozen = await restricted.client.rpc('freeze_my_account');
  expect(frozen.error).toBeNull();
  // Setting up an authenticator is a security change: withdrawals wait for the hold.
  const protectedPerson = await existingUserWithTotp('users-two-factor');

  await openAsWorkerAdmin(page, `/admin/users?q=${encodeURIComponent(restricted.email)}`);
  const restrictedRow = page.getByTestId('admin-user-row');
  await expect(restrictedRow).toHaveCount(1);
  const restrictedStates = restrictedRow.getByTestId('security-states');
  await expect(restrictedStates).toContainText('No 2FA');
  await expect(restrictedStates).toContainText('Withdrawals locked');
  await expect(restrictedStates).toContainText('Frozen');
  await expect(restrictedStates).not.toContainText('Held until');
  // Nothing to remove: the 2FA action is not offered.
  await expect(
    restrictedRow.getByRole('button', { name: /^Remove two-factor authentication of/ }),
  ).toHaveCount(0);

  await page.goto(`/admin/users?q=${encodeURIComponent(protectedPerson.email)}`);
  const protectedRow = page.getByTestId('admin-user-row');
  await expect(protectedRow).toHaveCount(1);
  const protectedStates = protectedRow.getByTestId('security-states');
  await expect(protectedStates).toContainText('2FA on');
  await expect(protectedStates).toContainText(/Held until \w{3} \d{1,2}, \d{4}/);
  await expect(protectedStates).not.toContainText('Frozen');
  await expect(
    protectedRow.getByRole('button', { name: /^Remove two-factor authentication of/ }),
  ).toBeVisible();
});

test('a 200-character name is cut short with the whole name on hover, and the Users list fits at 1366 and 390', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  // personWithBalance adds a space and 8 characters: 200 in all, the longest a name may be.
  const person = await personWithBalance(admin, 'Maximiliana'.padEnd(191, ' Longname'), 0);
  expect(person.fullName).toHaveLength(200);
  await openAsWorkerAdmin(page, `/admin/users?q=${encodeURIComponent(person.email)}`);
  const row = page.getByTestId('admin-user-row');
  await expect(row).toHaveCount(1);
  const name = row.getByTitle(person.fullName);
  await expect(name).toBeVisible();
  expect(await name.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);

  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(row.getByTestId('security-states')).toContainText('No 2FA');
    if (width === 1366)
      expect(await sidewaysOverflow(page), `${width}px scrolls sideways`).toBeLessThanOrEqual(0);
    else
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
        `${width}px: the page scrolls sideways`,
      ).toBeLessThanOrEqual(0);
  }
});
