import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { seriousAccessibilityViolations } from './support/accessibility';
import { personWithBalance, submitBuyRequest, submitWalletWithdrawal } from './support/admin-people';
import { openAsWorkerAdmin, workerAdminClient } from './support/buy-people';
import { rejectBuyRequest } from '../support/keyed-calls';
import { approveBuyRequest } from '../support/keyed-calls';
import { workerAdmin } from './support/worker-admin';

test.use({ locale: 'en-US' });

async function logInAsAdmin(page: Page) {
  await openAsWorkerAdmin(page);
}

/** The amounts of the rows on screen, top to bottom. */
async function amounts(page: Page, rowTestId: string) {
  const rows = page.getByTestId(rowTestId);
  return (await rows.allInnerTexts()).map((text) => text.match(/\$\d+\.\d{2}/)?.[0]);
}

test('search, filters and sort live in the address: a shared link shows the same rows, and Back the previous view', async ({
  page,
  browser,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Sortable', 1000);
  for (const amount of [30, 20, 10]) await submitBuyRequest(person, amount);
  const decided = await submitBuyRequest(person, 40);
  expect((await rejectBuyRequest(admin, decided)).error).toBeNull();
  await logInAsAdmin(page);
  await page.goto('/admin/buy-requests');
  const rows = 'admin-buy-request-row';

  await page.getByRole('searchbox', { name: 'Search by name or e-mail' }).fill(person.fullName);
  await expect(page).toHaveURL(/[?&]q=Sortable/);
  await expect(page.getByTestId(rows)).toHaveCount(4);
  expect(await amounts(page, rows)).toEqual(['$40.00', '$10.00', '$20.00', '$30.00']);

  await page.getByRole('button', { name: 'Amount (USD)' }).click();
  await expect(page).toHaveURL(/sort=amount\.asc/);
  await expect(page.getByRole('columnheader', { name: 'Amount (USD)' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await expect.poll(() => amounts(page, rows)).toEqual(['$10.00', '$20.00', '$30.00', '$40.00']);

  await page.getByLabel('Status').selectOption('pending');
  await expect(page).toHaveURL(/status=pending/);
  await expect(page.getByTestId(rows)).toHaveCount(3);
  expect(await page.locator('[role="alert"]').count()).toBe(0);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  // A colleague opening the same link sees the same rows in the same order.
  const colleague = await (await browser.newContext({ locale: 'en-US' })).newPage();
  await logInAsAdmin(colleague);
  await colleague.goto(page.url());
  await expect(colleague.getByTestId(rows)).toHaveCount(3);
  expect(await amounts(colleague, rows)).toEqual(['$10.00', '$20.00', '$30.00']);
  await expect(colleague.getByLabel('Status')).toHaveValue('pending');
  await expect(colleague.getByRole('searchbox', { name: 'Search by name or e-mail' })).toHaveValue(
    person.fullName,
  );
  await colleague.context().close();

  await page.goBack();
  await expect(page).not.toHaveURL(/status=/);
  await expect(page.getByTestId(rows)).toHaveCount(4);
  await expect(page.getByLabel('Status')).toHaveValue('');
  await page.goBack();
  await expect(page).not.toHaveURL(/sort=/);
  await expect.poll(() => amounts(page, rows)).toEqual(['$40.00', '$10.00', '$20.00', '$30.00']);

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByRole('searchbox', { name: 'Search by name or e-mail' })).toHaveValue('');
  await expect(page).not.toHaveURL(/q=/);
});

test('a page past the end of a list (an old link, or a shorter list after a search) shows its last page, not an error', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Paged', 500);
  await submitBuyRequest(person, 25);
  await logInAsAdmin(page);
  await page.goto(`/admin/buy-requests?user=${person.id}&page=7`);
  const row = page.getByTestId('admin-buy-request-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('$25.00');
  await expect(page).not.toHaveURL(/page=/);
  await expect(page.getByText('Page 1 of 1')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // Back does not return to the stale page.
  await page.goBack();
  await expect(page).not.toHaveURL(/page=7/);
});

test('a person, a method and a date range narrow the withdraw queue on the server; nothing matching says so', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Filtered', 500);
  const withdrawal = await submitWalletWithdrawal(person, 60, '0x1111222233334444555566667777888899990000');
  // The request's own day, not the clock's: the test may run across midnight.
  const created = await admin.from('withdraw_requests').select('date').eq('id', withdrawal).single();
  if (created.error) throw created.error;
  await logInAsAdmin(page);
  await page.goto('/admin/withdraw-requests');
  const rows = page.getByTestId('admin-withdraw-request-row');
  await rows.first().waitFor();
  await page.getByRole('searchbox', { name: 'Search by name or e-mail' }).fill(person.email);
  await expect(rows).toHaveCount(1);
  await rows.getByRole('button', { name: `Only ${person.fullName}'s rows` }).click();
  await expect(page).toHaveURL(new RegExp(`user=${person.id}`));
  await page.getByRole('searchbox', { name: 'Search by name or e-mail' }).fill('');
  await expect(page).not.toHaveURL(/q=/);
  await expect(rows).toHaveCount(1);
  await expect(page.getByRole('button', { name: `Person: ${person.fullName}` })).toBeVisible();

  await page.getByLabel('Method').selectOption('bank');
  await expect(page.getByText('Nothing matches the search and filters.')).toBeVisible();
  await page.getByLabel('Method').selectOption('wallet');
  await expect(rows).toHaveCount(1);

  const createdAt = new Date(created.data.date);
  // Days in this machine's zone, the browser's.
  const day = (offset: number) => {
    const date = new Date(createdAt.getFullYear(), createdAt.getMonth(), createdAt.getDate() + offset);
    return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  };
  await page.getByLabel('From').fill(day(1));
  await expect(page.getByText('Nothing matches the search and filters.')).toBeVisible();
  await page.getByLabel('From').fill(day(0));
  await page.getByLabel('To').fill(day(0));
  await expect(rows).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`from=${day(0)}&to=${day(0)}`));
});

test('Export CSV downloads what the filters match: named columns, plain numbers, times in UTC', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Exported, "CSV"', 2000);
  await submitBuyRequest(person, 1234.5);
  await submitBuyRequest(person, 10);
  await logInAsAdmin(page);
  await page.goto(`/admin/buy-requests?user=${person.id}&sort=amount.desc`);
  await expect(page.getByTestId('admin-buy-request-row')).toHaveCount(2);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^buy-requests-\d{4}-\d{2}-\d{2}T\d{6}Z\.csv$/);
  const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    'Date (UTC),Name,E-mail,Cryptocurrency,Amount (USD),Available balance (USD),Status,Recurring,Request ID',
  );
  expect(lines).toHaveLength(3);
  // Both buys hold their USD back; each row's available balance adds back its own, what approving it may use.
  const quotedName = `"${person.fullName.replaceAll('"', '""')}"`;
  expect(lines[1]).toMatch(
    new RegExp(
      `^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z,${quotedName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},${person.email},bitcoin,1234\\.50,1990\\.00,pending,no,[0-9a-f-]{36}$`,
    ),
  );
  expect(lines[2]).toContain(',10.00,765.50,pending,no,');
});

test('the audit log exports what its search matches: who, what, which record and the details, times in UTC', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const person = await personWithBalance(admin, 'Audit Exported', 300);
  const requestId = await submitBuyRequest(person, 40);
  expect((await approveBuyRequest(admin, requestId)).error).toBeNull();
  await logInAsAdmin(page);
  await page.goto(`/admin/audit-log?q=${encodeURIComponent(workerAdmin().email)}`);
  await expect(page.getByTestId('audit-log-row').filter({ hasText: requestId })).toHaveCount(1);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}T\d{6}Z\.csv$/);
  const [header, ...lines] = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
  expect(header).toBe('Date (UTC),Name,E-mail,Actor ID,Action,Table,Record ID,Details (JSON)');
  expect(lines.length).toBeGreaterThan(0);
  // Only the searched person's entries: every line names the worker's admin.
  for (const line of lines) expect(line).toContain(`,${workerAdmin().fullName},${workerAdmin().email},`);
  const approval = lines.filter((line) => line.includes(requestId));
  expect(approval).toHaveLength(1);
  expect(approval[0]).toMatch(
    new RegExp(
      `^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z,${workerAdmin().fullName},${workerAdmin().email},[0-9a-f-]{36},buy_request\\.approve,buy_requests,${requestId},"\\{.*\\}"$`,
    ),
  );
});
