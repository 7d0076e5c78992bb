import { expect, test } from '@playwright/test';
import { seriousAccessibilityViolations } from './support/accessibility';
import { personWithBalance, submitWalletWithdrawal } from './support/admin-people';
import { openAsWorkerAdmin, workerAdminClient } from './support/buy-people';

test.use({ locale: 'en-US' });

const widths = [1366, 1280, 1024, 390];

test('the withdraw queue keeps its actions in view and every column reachable at 1366, 1280, 1024 and phone widths', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Narrow Screen Person With A Long Name', 500);
  await submitWalletWithdrawal(person, 75, '0x1111222233334444555566667777888899990000');
  await openAsWorkerAdmin(page, `/admin/withdraw-requests?user=${person.id}`);
  // The box around the table: it scrolls sideways (and becomes a named region) when the columns need it.
  const table = page.getByRole('table', { name: 'Withdraw requests' }).locator('xpath=..');
  const row = page.getByTestId('admin-withdraw-request-row');
  await expect(row).toHaveCount(1);

  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    // The page itself never scrolls sideways; only the table's own region may.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      `${width}px: page scrolls sideways`,
    ).toBe(true);
    // The row in the middle of the screen, the table scrolled to its start, as a person arrives at it.
    await table.evaluate((region) => (region.scrollLeft = 0));
    await row.evaluate((element) =>
      window.scrollBy(0, element.getBoundingClientRect().top - window.innerHeight / 3),
    );
    for (const action of [/^Approve /, /^Reject /, /^Details of /]) {
      await expect(row.getByRole('button', { name: action }), `${width}px`).toBeInViewport({ ratio: 1 });
    }
    // Scrolled to its end, the table shows its last data column; at its start, the first (a phone's card
    // shows them all).
    await table.evaluate((region) => (region.scrollLeft = region.scrollWidth));
    await expect(row.getByRole('combobox'), `${width}px`).toBeInViewport();
    await table.evaluate((region) => (region.scrollLeft = 0));
    // The row's first cell, its date (on a phone the row is a card and its header row is for screen readers).
    await expect(row.locator('td[data-label="Date"]'), `${width}px`).toBeInViewport();
  }
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
