import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { seededAccounts } from '../../supabase/seed-accounts';
import { seriousAccessibilityViolations } from './support/accessibility';
import { logIn, openSignedIn } from './support/auth-people';
import { workerAdminClient, signUpFundedBuyer } from './support/buy-people';
import { skipLimitsNotices } from './support/limits-notices';

test.use({ locale: 'en-US' });

test('a person checks their proof of liabilities in the wallet, then anyone checks the downloaded file on the public page', async ({
  page,
  browser,
}) => {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 250);
  // The daily checkpoint, made now, so it counts this person.
  const { error } = await admin.rpc('create_ledger_checkpoint');
  expect(error).toBeNull();

  await skipLimitsNotices(page);
  await openSignedIn(page, buyer);
  await page.getByRole('button', { name: 'Check it here' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The proof is valid' })).toBeVisible();
  await expect(page.getByText('Passed: The checkpoint root is the one published.')).toBeVisible();
  await expect(
    page.getByText('It does not prove that CoinVault holds the money', { exact: false }),
  ).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download my proof' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('coinvault-proof.json');

  // A visitor (no session) checks the file; the page sends it nowhere: no request leaves after the choice.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto('/proof');
  await expect(visitor.getByRole('heading', { name: 'Proof of liabilities', level: 1 })).toBeVisible();
  await expect(visitor.getByTestId('published-root')).toHaveText(/^[0-9a-f]{64}$/);
  const requests: string[] = [];
  visitor.on('request', (request) => requests.push(request.url()));
  await visitor.getByLabel('Proof file').setInputFiles(await download.path());
  await expect(visitor.getByRole('status').filter({ hasText: 'The proof is valid' })).toBeVisible();
  expect(requests).toEqual([]);
  expect(await seriousAccessibilityViolations(visitor)).toEqual([]);
});

test('the public page refuses a proof whose balance was changed, saying which check failed', async ({
  page,
}) => {
  const admin = await workerAdminClient();
  const buyer = await signUpFundedBuyer(admin, 120);
  await admin.rpc('create_ledger_checkpoint');
  await skipLimitsNotices(page);
  await openSignedIn(page, buyer);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download my proof' }).click(),
  ]);
  const proof = JSON.parse(await readFile(await download.path(), 'utf8')) as {
    leaf: { balances: string[] };
  };
  proof.leaf.balances[0] = '1000000';
  await page.goto('/proof');
  await page.getByLabel('Proof file').setInputFiles({
    name: 'altered.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(proof)),
  });
  await expect(page.getByText('Failed: Your leaf and its path lead to the checkpoint root.')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'The proof is not valid' })).toBeVisible();
});

test('an admin reads a clean reconciliation report with the chain head and makes a checkpoint on demand', async ({
  page,
}) => {
  await logIn(page, seededAccounts.admin, /\/admin\/users$/);
  await page.goto('/admin/ledger');
  await expect(page.getByRole('heading', { name: 'Ledger', level: 1 })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: 'The books reconcile: no differences' }),
  ).toBeVisible();
  // The run sealed what was committed before it; what other sessions commit meanwhile waits for the next seal.
  await expect(page.getByTestId('reconciliation-awaiting-seal')).toHaveText(
    /^\d+ (entry|entries) committed during the run: counted in the books, sealed into the chain next$/,
  );
  const root = page.getByTestId('published-root');
  const before = (await root.count()) > 0 ? await root.textContent() : null;
  await page.getByRole('button', { name: 'Make a checkpoint now' }).click();
  await expect(root).toHaveText(/^[0-9a-f]{64}$/);
  await expect(root).not.toHaveText(before ?? '');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^reconciliation-.*\.csv$/);
  // The report after the checkpoint verified it: a run from it checks only the entries after its head.
  await page.getByRole('button', { name: 'From the latest verified checkpoint' }).click();
  await expect(page.getByTestId('reconciliation-scope')).toContainText('are out of scope of this run');
  await expect(
    page.getByRole('status').filter({ hasText: 'The books reconcile: no differences' }),
  ).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
