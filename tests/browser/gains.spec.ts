import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { idOf, recordCurrentPrices } from '../support/keyed-calls';
import { seriousAccessibilityViolations } from './support/accessibility';
import { openSignedIn } from './support/auth-people';
import { workerAdminClient, signUpBitcoinHolder } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';

test.use({ locale: 'en-US', timezoneId: 'Europe/Paris' });

test('a person chooses next year’s cost basis method, reads this year’s gains report and downloads it as CSV', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const { holder, client, buyRequestId } = await signUpBitcoinHolder(admin, 500, 100);
  const { data: bought, error } = await admin
    .from('transactions')
    .select('quantity')
    .eq('buy_request_id', buyRequestId)
    .single();
  if (error) throw error;
  // Half of the coins sold, approved at the server's price: one sale consuming part of one lot.
  const half = (Number(bought.quantity) / 2).toFixed(8);
  const sellRequestId = await idOf(
    client.rpc('create_sell_request', {
      cryptocurrency: 'bitcoin',
      quantity: Number(half),
      idempotency_key: randomUUID(),
    }),
  );
  await recordCurrentPrices(admin);
  const approval = await admin.rpc('approve_sell_request', {
    request_id: sellRequestId,
    idempotency_key: randomUUID(),
  });
  if (approval.error) throw approval.error;
  await client.auth.signOut({ scope: 'local' });

  await skipLimitsNotices(page);
  await openSignedIn(page, holder, '/user/account');
  // The tax year is the person's zone's (UTC until they pick one): on New Year's Eve, Paris is an hour ahead.
  const yearIn = (timeZone: string) =>
    Number(new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric' }).format(new Date()));
  const yearInUtc = yearIn('UTC');
  await expect(page.getByText(`This tax year (${yearInUtc}): First in, first out (FIFO)`)).toBeVisible();
  await page.getByLabel(`Method from ${yearInUtc + 1}`).selectOption('hifo');
  await page.getByRole('button', { name: 'Save method' }).click();
  await expect(page.getByTestId('next-year-method')).toHaveText('Highest cost first (HIFO)');
  await page.getByRole('button', { name: "Use this device's time zone (Europe/Paris)" }).click();
  await expect(page.getByText('Tax years and days count in Europe/Paris.')).toBeVisible();
  const thisYear = yearIn('Europe/Paris');

  await page.getByRole('link', { name: 'Gains report' }).click();
  await expect(page.getByRole('heading', { name: `Gains report ${thisYear}`, level: 1 })).toBeVisible();
  await expect(
    page.getByText(`tax year ${thisYear} in Europe/Paris · First in, first out (FIFO)`),
  ).toBeVisible();
  const lines = page.getByTestId('gain-line');
  await expect(lines).toHaveCount(1);
  await expect(lines).toContainText(half);
  await expect(lines).toContainText('$50.00');
  await expect(lines).toContainText('Short');
  await expect(page.getByLabel('Totals')).toContainText('$50.00');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`gains-${thisYear}.csv`);
  const [header, line, total] = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
  expect(header).toBe(
    'Cryptocurrency,Date acquired,Date sold,Quantity,Proceeds (USD),Cost basis (USD),Gain or loss (USD),Term,Method,Sale ID,Lot ID',
  );
  expect(line?.split(',').slice(3, 9)).toEqual([
    half,
    expect.stringMatching(/^\d+\.\d{2}$/),
    '50.00',
    expect.stringMatching(/^-?\d+\.\d{2}$/),
    'short',
    'fifo',
  ]);
  expect(total).toMatch(/^Total,,,,\d+\.\d{2},50\.00,-?\d+\.\d{2},,,,$/);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
