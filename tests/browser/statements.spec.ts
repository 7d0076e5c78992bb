import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { seriousAccessibilityViolations } from './support/accessibility';
import { openSignedIn, withDatabase } from './support/auth-people';
import { signUpBitcoinHolder, signUpFundedBuyer, workerAdminClient } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';

// A zone of its own, so the statement's times are shown to be the person's, not the server's or UTC.
test.use({ locale: 'en-US', timezoneId: 'America/Sao_Paulo' });

/** The day `days` days ago in the browser's time zone, as a date input writes it. */
const daysAgo = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', dateStyle: 'short' }).format(
    new Date(Date.now() - days * 86_400_000),
  );

/** Today in the browser's time zone, as a date input writes it. */
const today = () => daysAgo(0);

test('a person downloads their statement of a period as CSV: the columns named on the card, plain numbers, times in their zone', async ({
  page,
}) => {
  const buyer = await signUpFundedBuyer(await workerAdminClient(), 1234.5);
  await skipLimitsNotices(page);
  await openSignedIn(page, buyer);
  await expect(
    page.getByText(
      "The CSV file's columns: Date, Type, Status, Cryptocurrency, Quantity, Price (USD), Amount (USD), Balance (USD), Transaction ID; amounts are plain numbers in USD.",
      { exact: false },
    ),
  ).toBeVisible();
  await expect(
    page.getByText('Times are in your time zone, America/Sao_Paulo.', { exact: false }),
  ).toBeVisible();
  // The statement card is the wallet page's last.
  await page.getByLabel('From', { exact: true }).last().fill(today());
  await page.getByLabel('To', { exact: true }).last().fill(today());

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`statement-${today()}-to-${today()}.csv`);
  const [header, ...rows] = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
  expect(header).toBe(
    'Date (America/Sao_Paulo),Type,Status,Cryptocurrency,Quantity,Price (USD),Amount (USD),Balance (USD),Transaction ID',
  );
  expect(rows).toHaveLength(1);
  const [date, type, status, coin, quantity, price, amount, balance, id] = (rows[0] ?? '').split(',');
  expect(date).toMatch(new RegExp(`^${today()}T\\d{2}:\\d{2}:\\d{2}-03:00$`));
  expect({ type, status, coin, quantity, price, amount, balance }).toEqual({
    type: 'deposit',
    status: 'complete',
    coin: '',
    quantity: '',
    price: '',
    amount: '1234.50',
    balance: '1234.50',
  });
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test("the printable statement lists the period in the person's zone with its totals; a reversed period is refused", async ({
  page,
}) => {
  const buyer = await signUpFundedBuyer(await workerAdminClient(), 300);
  await skipLimitsNotices(page);
  await openSignedIn(page, buyer);
  await page.getByRole('link', { name: 'Printable statement' }).click();
  await expect(page).toHaveURL(/\/user\/statement\?from=\d{4}-\d{2}-01&to=\d{4}-\d{2}-\d{2}$/);
  await expect(page.getByRole('heading', { name: 'Statement', level: 1 })).toBeVisible();
  await expect(page.getByText(`${buyer.email} ·`)).toContainText('times in America/Sao_Paulo');
  await expect(page.getByTestId('statement-row')).toHaveCount(1);
  await expect(page.getByTestId('statement-row')).toContainText('Deposit');
  await expect(page.getByTestId('statement-row')).toContainText('$300.00');
  await expect(page.getByText('Deposits (completed)').locator('..')).toContainText('$300.00');
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  await page.goBack();
  await page.getByLabel('From', { exact: true }).last().fill('2026-12-31');
  await page.getByLabel('To', { exact: true }).last().fill('2026-01-01');
  await expect(
    page.getByRole('alert').filter({ hasText: 'The start date must be on or before the end date' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
});

test("the statement names its holder and shows each buy's coin quantity and price, the balance after each entry and the opening and closing balances", async ({
  page,
}) => {
  const { holder, client } = await signUpBitcoinHolder(await workerAdminClient(), 500, 100);
  await client.auth.signOut({ scope: 'local' });
  await skipLimitsNotices(page);
  await openSignedIn(page, holder);
  const tomorrow = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Sao_Paulo',
    dateStyle: 'short',
  }).format(new Date(Date.now() + 86_400_000));

  await page.goto(`/user/statement?from=${today()}&to=${today()}`);
  await expect(page.getByTestId('statement-holder')).toHaveText(holder.fullName);
  const total = (label: string) => page.getByText(label, { exact: true }).locator('..');
  await expect(total('Opening balance')).toContainText('$0.00');
  await expect(total('Closing balance')).toContainText('$400.00');
  const [deposit, buy] = [
    page.getByTestId('statement-row').first(),
    page.getByTestId('statement-row').last(),
  ];
  await expect(page.getByTestId('statement-row')).toHaveCount(2);
  await expect(deposit).toContainText('$500.00');
  await expect(buy).toContainText('Bitcoin');
  // Quantity (8 decimals), the fill price, the amount and the balance after it.
  await expect(buy.getByRole('cell').nth(4)).toHaveText(/^0\.\d{8}$/);
  await expect(buy.getByRole('cell').nth(5)).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
  await expect(buy.getByRole('cell').nth(6)).toHaveText('$100.00');
  await expect(buy.getByRole('cell').nth(7)).toHaveText('$400.00');

  // A later period opens with everything before it.
  await page.goto(`/user/statement?from=${tomorrow}&to=${tomorrow}`);
  await expect(total('Opening balance')).toContainText('$400.00');
  await expect(total('Closing balance')).toContainText('$400.00');
  await expect(page.getByText('No transactions in this period.')).toBeVisible();
});

test("a statement's opening balance counts the entries made months before its period", async ({ page }) => {
  const person = await signUpFundedBuyer(await workerAdminClient(), 500);
  // A deposit four months ago and a withdrawal three months ago; the 500 came today, after the period.
  await withDatabase((client) =>
    client.query(
      `insert into public.transactions (user_id, type, amount, status, date) values
         ($1, 'deposit', 250, 'complete', now() - interval '120 days'),
         ($1, 'withdraw', 100, 'complete', now() - interval '90 days')`,
      [person.id],
    ),
  );
  await skipLimitsNotices(page);
  await openSignedIn(page, person);
  const total = (label: string) => page.getByText(label, { exact: true }).locator('..');

  await page.goto(`/user/statement?from=${daysAgo(100)}&to=${daysAgo(30)}`);
  await expect(total('Opening balance')).toContainText('$250.00');
  await expect(page.getByTestId('statement-row')).toHaveCount(1);
  await expect(page.getByTestId('statement-row')).toContainText('$100.00');
  await expect(total('Closing balance')).toContainText('$150.00');

  await page.goto(`/user/statement?from=${daysAgo(60)}&to=${daysAgo(30)}`);
  await expect(total('Opening balance')).toContainText('$150.00');
  await expect(total('Closing balance')).toContainText('$150.00');
  await expect(page.getByText('No transactions in this period.')).toBeVisible();
});
