import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { seriousAccessibilityViolationsInBothThemes } from './support/accessibility';
import { openSignedIn, withDatabase } from './support/auth-people';
import { workerAdminClient, signUpFundedBuyer } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';
import { stubMarketProvider } from './support/market-provider';

test.use({ locale: 'en-US' });

test('the history card charts the portfolio and a coin held from the snapshots, live, redrawn for another range', async ({
  page,
}) => {
  // A person set up through the worker's admin (password and code), axe twice: past the default minute on a
  // machine shared by other test runs.
  test.setTimeout(120_000);
  const admin = await workerAdminClient();
  const person = await signUpFundedBuyer(admin, 1000);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await stubMarketProvider(page);
  await skipLimitsNotices(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  expect(
    scripts.filter((url) => url.includes('history-chart')),
    'the chart code on the landing page',
  ).toEqual([]);

  await openSignedIn(page, person);
  await expect(page.getByText('No history for this range yet.')).toBeVisible();

  // A coin of this test's own, so prices recorded meanwhile do not matter: three days of hourly snapshots
  // (100 three days ago, rising by 1 an hour to 171 an hour ago) and the last half hour's minutes (270 to
  // 299), written as the market function keeps them; the person bought 2 of it four days ago. The
  // ledger change reaches the page live: no reload.
  const coin = `history-${randomUUID().slice(0, 8)}`;
  await withDatabase(async (db) => {
    await db.query(
      `insert into public.price_snapshots (cryptocurrency, price, captured_at, hourly)
       select $1, 100 + 72 - n, date_trunc('hour', now()) - make_interval(hours => n), true
       from generate_series(1, 72) as n
       union all
       select $1, 300 - n, date_trunc('minute', now()) - make_interval(mins => n), false
       from generate_series(1, 30) as n`,
      [coin],
    );
    // The chart counts cash too: the 10 USD it cost were deposited the day before, so the history is the
    // coin's alone (the 1,000 funded just now comes after the newest snapshot).
    await db.query(
      `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price, date)
       values ($1, 'deposit', 10, 'complete', null, null, null, now() - interval '5 days'),
              ($1, 'buy', 10, 'complete', $2, 2, 5, now() - interval '4 days')`,
      [person.id, coin],
    );
  });

  const chart = page.getByTestId('history-chart');
  const summary = page.getByTestId('history-summary');
  await expect(chart.locator('canvas')).toBeVisible();
  // 24 h: the minutes too, so it ends at the newest minute's price: 2 x 299.
  await expect(summary).toContainText('Portfolio value over 24 h: from ');
  await expect(summary).toContainText('to $598.00');
  expect(
    scripts.filter((url) => url.includes('history-chart')),
    'the chart code on the wallet',
  ).toHaveLength(1);

  const ranges = page.getByRole('group', { name: 'Range' });
  await ranges.getByRole('button', { name: '7 d' }).click();
  await expect(ranges.getByRole('button', { name: '7 d' })).toHaveAttribute('aria-pressed', 'true');
  await expect(summary).toHaveText(
    'Portfolio value over 7 d: from $200.00 to $342.00, +$142.00 (+71.00%); high $342.00, low $200.00.',
  );
  await expect(chart.locator('canvas')).toBeVisible();

  const coinLabel = `History ${coin.slice('history-'.length)}`;
  await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: coinLabel }).click();
  await expect(summary).toHaveText(
    `${coinLabel} price over 7 d: from $100.00 to $171.00, +$71.00 (+71.00%); high $171.00, low $100.00.`,
  );
  await expect(chart.locator('canvas')).toBeVisible();

  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
  expect(await seriousAccessibilityViolationsInBothThemes(page)).toEqual([]);
});
