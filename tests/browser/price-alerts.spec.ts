import { expect, test } from '@playwright/test';
import { seriousAccessibilityViolations } from './support/accessibility';
import { openSignedIn, withDatabase } from './support/auth-people';
import { workerAdminClient, signUpFundedBuyer } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';

test.use({ locale: 'en-US' });

/** The next minute's price of a coin as the market function records it (written as the operator). */
const recordPrice = (coin: string, price: number) =>
  withDatabase((db) =>
    db.query(
      `insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly)
       values ($1, $2, date_trunc('minute', now()) + interval '1 minute'
         * (1 + (select count(*) from public.price_snapshots where cryptocurrency = $1)), false)`,
      [coin, price],
    ),
  );

test('a person sets a price alert and is told once when the server’s price crosses it', async ({ page }) => {
  const admin = await workerAdminClient();
  const person = await signUpFundedBuyer(admin, 10);
  // A coin of this test's own, so no other test's prices cross this alert.
  const coin = `alert-${person.id.slice(0, 8)}`;
  await recordPrice(coin, 95);
  await skipLimitsNotices(page);
  await openSignedIn(page, person);
  await page.getByRole('link', { name: 'Price alerts' }).click();
  await expect(page.getByText('No price alerts yet.')).toBeVisible();
  const form = page.getByRole('form', { name: 'New price alert' });
  await form.getByLabel('Coin').selectOption({ index: 0 });
  await form.getByLabel('Price (USD)').fill('10000000');
  await form.getByRole('button', { name: 'Set alert' }).click();
  await expect(page.getByText(/above \$10,000,000\.00 · waiting/)).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  // The page's alert is on a market coin; one of the test's own coin is set as the person, to cross it here.
  const { rows } = await withDatabase((db) =>
    db.query<{ cryptocurrency: string }>(
      'select cryptocurrency from public.price_alerts where user_id = $1',
      [person.id],
    ),
  );
  await withDatabase((db) =>
    db.query(
      `update public.price_alerts set cryptocurrency = $2 where user_id = $1 and cryptocurrency = $3`,
      [person.id, coin, rows[0]?.cryptocurrency],
    ),
  );
  await recordPrice(coin, 10_000_001);
  await recordPrice(coin, 10_000_002);
  // Its deposit told it too: the bell counts both.
  await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
  await expect(
    page.getByText(new RegExp(`The price of ${coin} is \\$10,000,001(\\.00)?, above your alert at`)),
  ).toBeVisible();

  // Both prices were recorded before the bell read its list: the second tick past the price told nothing.
  await expect(page.getByText(/above your alert at/)).toHaveCount(1);
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(page.getByText(/told; waits for the price to come back/)).toBeVisible();
  await page.getByRole('button', { name: `Delete the alert ${coin} above $10,000,000.00` }).click();
  await expect(page.getByText('No price alerts yet.')).toBeVisible();
});

test('a person sets an alert on a move of more than N % in 24 h and reads it in their list', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await signUpFundedBuyer(admin, 10);
  await skipLimitsNotices(page);
  await openSignedIn(page, person);
  await page.getByRole('link', { name: 'Price alerts' }).click();
  const form = page.getByRole('form', { name: 'New price alert' });
  await form.getByLabel('Coin').selectOption({ index: 0 });
  await form.getByLabel('When the price').selectOption('moves');
  await expect(form.getByLabel('Price (USD)')).toHaveCount(0);
  await form.getByLabel('By more than (%)').fill('7.5');
  await form.getByRole('button', { name: 'Set alert' }).click();
  await expect(page.getByText(/moves more than 7\.5 % in 24 h · waiting/)).toBeVisible();
  const { rows } = await withDatabase((db) =>
    db.query('select direction, price, percent from public.price_alerts where user_id = $1', [person.id]),
  );
  expect(rows).toEqual([{ direction: 'moves', price: null, percent: '7.5' }]);
});
